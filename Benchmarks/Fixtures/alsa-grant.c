// alsa-grant.c — what an ALSA PCM grants to the request `mprisd play` makes (ALSAPCM.configure):
// S16_LE stereo at RATE, the buffer near BUFFER_US and the period near a third of it. For
// Benchmarks/play-power.sh, which reports the buffer each device granted next to its wake-ups.
//
//   alsa-grant PCM BUFFER_US [RATE]  ->  "buffer_frames=529200 buffer_ms=12000 period_frames=176400 period_ms=4000"
#include <alsa/asoundlib.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: alsa-grant PCM BUFFER_US [RATE]\n");
        return 2;
    }
    unsigned rate = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 44100;
    unsigned buffer_us = (unsigned)strtoul(argv[2], NULL, 10), period_us = buffer_us / 3;
    snd_pcm_t *pcm;
    snd_pcm_hw_params_t *hw;
    int code = snd_pcm_open(&pcm, argv[1], SND_PCM_STREAM_PLAYBACK, 0);
    if (code < 0) {
        fprintf(stderr, "alsa-grant: %s: %s\n", argv[1], snd_strerror(code));
        return 1;
    }
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_hw_params_any(pcm, hw);
    snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED);
    snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE);
    snd_pcm_hw_params_set_channels(pcm, hw, 2);
    snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, NULL);
    snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &buffer_us, NULL);
    snd_pcm_hw_params_set_period_time_near(pcm, hw, &period_us, NULL);
    if ((code = snd_pcm_hw_params(pcm, hw)) < 0) {
        fprintf(stderr, "alsa-grant: %s: %s\n", argv[1], snd_strerror(code));
        return 1;
    }
    snd_pcm_uframes_t buffer, period;
    snd_pcm_hw_params_get_buffer_size(hw, &buffer);
    snd_pcm_hw_params_get_period_size(hw, &period, NULL);
    printf("buffer_frames=%lu buffer_ms=%lu period_frames=%lu period_ms=%lu\n", buffer, buffer * 1000 / rate,
           period, period * 1000 / rate);
    snd_pcm_close(pcm);
    return 0;
}
