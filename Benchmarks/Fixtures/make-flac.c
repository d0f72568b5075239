// make-flac OUT.flac SECONDS: a 44.1 kHz 16-bit stereo FLAC that compresses like music, not like a
// test tone: chords of detuned harmonics changing every half second, a slow stereo pan, and quiet
// noise (a pure sine compresses ~20:1 and decodes faster than any real file). Built and run by
// Benchmarks/cpu-play.sh with `cc ... -lsndfile -lm`.
#include <math.h>
#include <sndfile.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 3 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: make-flac OUT.flac SECONDS\n");
        return 2;
    }
    const int rate = 44100, seconds = atoi(argv[2]);
    SF_INFO info = {.samplerate = rate, .channels = 2, .format = SF_FORMAT_FLAC | SF_FORMAT_PCM_16};
    SNDFILE *out = sf_open(argv[1], SFM_WRITE, &info);
    if (out == NULL) {
        fprintf(stderr, "make-flac: %s\n", sf_strerror(NULL));
        return 1;
    }
    static const double scale[] = {220.0, 246.9, 261.6, 293.7, 329.6, 349.2, 392.0, 440.0};
    uint32_t noise = 12345;
    short frame[2 * 4410];
    for (long chunk = 0; chunk < (long)seconds * 10; chunk++) {
        for (int i = 0; i < 4410; i++) {
            long n = chunk * 4410 + i;
            double t = (double)n / rate;
            long step = n / (rate / 2);
            double v = 0;
            for (int k = 0; k < 3; k++) {
                double f = scale[(step * (k + 3) + k * 2) % 8] * (k + 1) * (1.0 + 0.002 * k);
                double env = exp(-3.0 * fmod(t, 0.5));
                v += env / (k + 1) * (sin(2 * M_PI * f * t) + 0.3 * sin(4 * M_PI * f * t + k));
            }
            noise = noise * 1664525u + 1013904223u;
            double hiss = ((double)(noise >> 16) / 65536.0 - 0.5) * 0.02;
            double pan = 0.5 + 0.4 * sin(2 * M_PI * 0.1 * t);
            frame[2 * i] = (short)(8000 * (v * (1 - pan)) + 8000 * hiss);
            frame[2 * i + 1] = (short)(8000 * (v * pan) - 8000 * hiss);
        }
        if (sf_writef_short(out, frame, 4410) != 4410) {
            fprintf(stderr, "make-flac: %s\n", sf_strerror(out));
            return 1;
        }
    }
    sf_close(out);
    return 0;
}
