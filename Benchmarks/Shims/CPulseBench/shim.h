// libpulse for the C benchmark clients: its headers (the library is linked by each target).
#include <pulse/pulseaudio.h>
