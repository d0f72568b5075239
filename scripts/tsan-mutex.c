// Teaches ThreadSanitizer the contended path of Swift's `Synchronization.Mutex` on Linux.
//
// The uncontended lock and unlock are atomics inlined into our code, which TSan sees. Under
// contention they go through `_lockSlow`/`_unlockSlow` in libswiftSynchronization.so, which hand
// the lock over in the kernel (FUTEX_LOCK_PI/FUTEX_UNLOCK_PI): that library is not instrumented, so
// TSan sees no ordering between the two holders and reports every access to a Mutex-protected
// value as a race. Preloaded by scripts/tsan.sh, this library wraps those three functions and
// tells TSan what they do (acquire after locking, release before unlocking) on the mutex's address,
// the same address the inlined atomics use. Programs without TSan (dbus-daemon, python) load it
// too: the TSan hooks are weak and then absent, and the wrappers only forward.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

// Swift's calling convention: `self` (the address of the mutex's state) in the swiftself register.
typedef __attribute__((swiftcall)) void (*LockSlow)(uint32_t, void *__attribute__((swift_context)));
typedef __attribute__((swiftcall)) bool (*TryLockSlow)(void *__attribute__((swift_context)));
typedef __attribute__((swiftcall)) void (*UnlockSlow)(void *__attribute__((swift_context)));

__attribute__((swiftcall)) void lockSlow(uint32_t selfId, void *self __attribute__((swift_context))) __asm__(LOCK_SLOW);
__attribute__((swiftcall)) bool tryLockSlow(void *self __attribute__((swift_context))) __asm__(TRY_LOCK_SLOW);
__attribute__((swiftcall)) void unlockSlow(void *self __attribute__((swift_context))) __asm__(UNLOCK_SLOW);

static LockSlow realLockSlow;
static TryLockSlow realTryLockSlow;
static UnlockSlow realUnlockSlow;

// Looked up once, before any thread of the program starts.
__attribute__((constructor)) static void findTheRealFunctions(void) {
    realLockSlow = (LockSlow)dlsym(RTLD_NEXT, LOCK_SLOW);
    realTryLockSlow = (TryLockSlow)dlsym(RTLD_NEXT, TRY_LOCK_SLOW);
    realUnlockSlow = (UnlockSlow)dlsym(RTLD_NEXT, UNLOCK_SLOW);
}

__attribute__((swiftcall)) void lockSlow(uint32_t selfId, void *self __attribute__((swift_context))) {
    realLockSlow(selfId, self);
    if (__tsan_acquire) __tsan_acquire(self);
}

__attribute__((swiftcall)) bool tryLockSlow(void *self __attribute__((swift_context))) {
    bool locked = realTryLockSlow(self);
    if (locked && __tsan_acquire) __tsan_acquire(self);
    return locked;
}

__attribute__((swiftcall)) void unlockSlow(void *self __attribute__((swift_context))) {
    if (__tsan_release) __tsan_release(self);
    realUnlockSlow(self);
}
