// CLinux: the few Linux calls the Glibc module does not export to Swift.
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H

#include <pthread.h>
#include <semaphore.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <time.h>
#include <errno.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

// A GNU extension, hidden from the Glibc module unless _GNU_SOURCE was set when it was built.
extern int pthread_setname_np(pthread_t thread, const char *name);
// Likewise (glibc 2.30): `sem_timedwait` on a chosen clock, for time-outs the wall clock cannot move.
extern int sem_clockwait(sem_t *sem, clockid_t clock, const struct timespec *abstime);
// GNU: `pipe` with flags (O_CLOEXEC).
extern int pipe2(int pipefd[2], int flags);
// GNU (glibc 2.11): `execvp` with an environment.
extern int execvpe(const char *file, char *const argv[], char *const envp[]);

// Starts `file` (looked up in PATH) as a child that dies with its parent: fork, then in the child
// PR_SET_PDEATHSIG (`deathSignal` when the forking thread's process goes away, even by SIGKILL),
// exit at once if the parent is already gone, an empty signal mask, default dispositions for the
// signals in `defaults`, exec. C, not Swift, runs between fork and exec: only async-signal-safe
// calls, no allocation. The parent must call it from a thread that lives as long as the child
// should (the main thread): the death signal follows the forking thread.
// Returns the child's pid, or -1 with errno; an exec failure is written as an int to
// `errorPipe` (the write end of a close-on-exec pipe) and the child exits 127.
static inline pid_t clinux_spawn_tied(const char *file, char *const argv[], char *const envp[],
                                      const sigset_t *defaults, int deathSignal, int errorPipe) {
    pid_t parent = getpid();
    pid_t child = fork();
    if (child != 0) return child;
    if (prctl(PR_SET_PDEATHSIG, deathSignal, 0, 0, 0) != 0 || getppid() != parent) _exit(127);
    for (int number = 1; number < NSIG; number++) {
        if (sigismember(defaults, number) == 1) signal(number, SIG_DFL);
    }
    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, NULL);
    execvpe(file, argv, envp);
    int code = errno;
    ssize_t ignored = write(errorPipe, &code, sizeof code);
    (void)ignored;
    _exit(127);
}

#endif
