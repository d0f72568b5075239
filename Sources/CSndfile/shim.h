// CSndfile: libsndfile for Swift (decoding WAV, FLAC, Ogg, MP3 where available). The headers
// only: CLazyLibraries defines the functions and loads libsndfile on first use.
#ifndef CSNDFILE_SHIM_H
#define CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
