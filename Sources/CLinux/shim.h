// CLinux: the few Linux calls the Glibc module does not export to Swift.
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H

#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <signal.h>

// A GNU extension, hidden from the Glibc module unless _GNU_SOURCE was set when it was built.
extern int pthread_setname_np(pthread_t thread, const char *name);

#endif
