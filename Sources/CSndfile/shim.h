// CSndfile: libsndfile for Swift (decoding WAV, FLAC, Ogg, MP3 where available).
#ifndef CSNDFILE_SHIM_H
#define CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
