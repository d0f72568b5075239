// CALSA: alsa-lib for Swift (PCM output, control and mixer for jacks and volume).
#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
