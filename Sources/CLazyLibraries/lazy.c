// The loader shared by pulse.c and sndfile.c (see CLazyLibraries.h).
#include "CLazyLibraries.h"
#include "lazy.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

const char *mprisd_lazy_open(const char *soname, const char *package, const char *const names[],
                             void *slots[], size_t count, char *buffer, size_t size) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(buffer, size, "cannot load %s (package %s): %s", soname, package,
                 reason != NULL ? reason : "unknown dlopen error");
        return buffer;
    }
    for (size_t index = 0; index < count; index++) {
        dlerror();
        slots[index] = dlsym(handle, names[index]);
        if (slots[index] == NULL) {
            const char *reason = dlerror();
            snprintf(buffer, size, "%s has no %s (package %s too old?): %s", soname, names[index], package,
                     reason != NULL ? reason : "symbol is NULL");
            for (size_t cleared = 0; cleared < count; cleared++) slots[cleared] = NULL;
            dlclose(handle);
            return buffer;
        }
    }
    return NULL;
}

void mprisd_lazy_unavailable(const char *function, const char *reason) {
    fprintf(stderr, "mprisd: %s called without its library (%s): a caller skipped the check\n", function,
            reason != NULL ? reason : "not loaded");
    abort();
}
