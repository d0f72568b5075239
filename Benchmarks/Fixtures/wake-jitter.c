// wake-jitter: how late a sleeping thread of normal priority wakes up (issue 18): the margin the
// audio thread keeps queued must cover it. Sleeps SECONDS in total, in random sleeps of 20–200 ms
// (clock_nanosleep, CLOCK_MONOTONIC, absolute deadlines), and prints the lateness of each wake-up
// past its deadline as percentiles:
//
//   wake-jitter SECONDS      → "wakeups=N median_us=.. p99_us=.. p999_us=.. max_us=.."
//
// Run it under the load to be measured (e.g. `yes > /dev/null` on every CPU).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int compare(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 10;
    if (seconds <= 0) {
        fprintf(stderr, "usage: wake-jitter SECONDS\n");
        return 2;
    }
    size_t capacity = (size_t)(seconds * 50) + 16, count = 0;
    long long *late = malloc(capacity * sizeof *late);
    if (late == NULL) return 1;
    srand(42);
    long long end = now_ns() + (long long)(seconds * 1e9);
    while (count < capacity) {
        long long deadline = now_ns() + (20 + rand() % 181) * 1000000LL;
        if (deadline > end) break;
        struct timespec ts = { .tv_sec = deadline / 1000000000LL, .tv_nsec = deadline % 1000000000LL };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {}
        late[count++] = (now_ns() - deadline) / 1000;
    }
    if (count == 0) return 1;
    qsort(late, count, sizeof *late, compare);
    printf("wakeups=%zu median_us=%lld p99_us=%lld p999_us=%lld max_us=%lld\n", count, late[count / 2],
           late[(count * 99) / 100], late[(count * 999) / 1000], late[count - 1]);
    return 0;
}
