// CLinux: the few Linux calls the Glibc module does not export to Swift.
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H

#include <pthread.h>
#include <semaphore.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <time.h>

// A GNU extension, hidden from the Glibc module unless _GNU_SOURCE was set when it was built.
extern int pthread_setname_np(pthread_t thread, const char *name);
// Likewise (glibc 2.30): `sem_timedwait` on a chosen clock, for time-outs the wall clock cannot move.
extern int sem_clockwait(sem_t *sem, clockid_t clock, const struct timespec *abstime);

#endif
