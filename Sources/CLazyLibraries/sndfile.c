// libsndfile on first use: the 9 `sf_*` functions AudioDevices calls, forwarded to libsndfile.so.1.
#include "CLazyLibraries.h"
#include "lazy.h"
#include <pthread.h>
// Hidden, as in pulse.c: the forwarders serve this program's own calls only.
#pragma GCC visibility push(hidden)
#include <sndfile.h>

#define SNDFILE_FUNCTIONS(X) \
    X(int, sf_close, (SNDFILE *sndfile), (sndfile)) \
    X(int, sf_command, (SNDFILE *sndfile, int command, void *data, int datasize), (sndfile, command, data, datasize)) \
    X(int, sf_error, (SNDFILE *sndfile), (sndfile)) \
    X(const char *, sf_get_string, (SNDFILE *sndfile, int str_type), (sndfile, str_type)) \
    X(SNDFILE *, sf_open, (const char *path, int mode, SF_INFO *sfinfo), (path, mode, sfinfo)) \
    X(sf_count_t, sf_readf_float, (SNDFILE *sndfile, float *ptr, sf_count_t frames), (sndfile, ptr, frames)) \
    X(sf_count_t, sf_seek, (SNDFILE *sndfile, sf_count_t frames, int whence), (sndfile, frames, whence)) \
    X(const char *, sf_strerror, (SNDFILE *sndfile), (sndfile)) \
    X(const char *, sf_version_string, (void), ())

enum { SNDFILE_FUNCTIONS(LAZY_INDEX) sndfile_count };
static const char *const sndfile_names[] = { SNDFILE_FUNCTIONS(LAZY_NAME) };
static void *sndfile_table[sndfile_count];
static pthread_once_t sndfile_once = PTHREAD_ONCE_INIT;
static const char *sndfile_error;
static char sndfile_error_text[512];

static void sndfile_open(void) {
    sndfile_error = mprisd_lazy_open("libsndfile.so.1", "libsndfile1", sndfile_names, sndfile_table, sndfile_count,
                                     sndfile_error_text, sizeof sndfile_error_text);
}

#pragma GCC visibility pop

bool mprisd_sndfile_load(const char **error) {
    pthread_once(&sndfile_once, sndfile_open);
    if (sndfile_error != NULL && error != NULL) *error = sndfile_error;
    return sndfile_error == NULL;
}

#pragma GCC visibility push(hidden)
#define LAZY_NEED(name) if (!mprisd_sndfile_load(NULL)) mprisd_lazy_unavailable(name, sndfile_error)
#define LAZY_TABLE sndfile_table
SNDFILE_FUNCTIONS(LAZY_FORWARD)
#pragma GCC visibility pop
