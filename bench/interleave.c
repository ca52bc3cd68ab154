// interleave: times commands by alternating them run by run, so that a drift in the
// machine's speed (this VM's is large) falls on all of them alike; hyperfine runs each
// command's runs back to back instead.
//
//   interleave RUNS CMD [ARG...] ::: CMD [ARG...] ...
//
// Each round forks and execs every command once, with stdout to /dev/null, and takes
// the wall time from fork to wait. Round r starts with command r mod N and goes on in
// order, so that each command runs as often in each place of the round: a program
// run right after another is slower here (an empty program, 5% slower after a 1k
// suggestion than before it), and a fixed order would give that to one of them alone. The first 10 rounds are warm-up. With
// INTERLEAVE_SYNC=1 in the environment, sync(2) runs before each command, untimed, so
// that no command's fsync waits for the writes another left to the kernel. Prints,
// per command, the median, the 25th and the 10th percentile, the median's ratio to
// the last command's (the peer), and the median of the ratios round by round with its
// 95% interval ("paired 1.04x [1.01 1.07]": each round's ratio is taken between runs a
// few milliseconds apart, so the drift cancels; the interval is the median's order
// statistics at n/2 -+ 0.98 sqrt(n), which assumes nothing of the distribution). Exit
// status: 0, or 2 when a command cannot run or exits non-zero (its first failure is
// reported).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { warmup = 10, maxCommands = 32 };

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 3 || atoi(argv[1]) < 1) {
        fprintf(stderr, "usage: interleave RUNS CMD [ARG...] ::: CMD [ARG...] ...\n");
        return 2;
    }
    int runs = atoi(argv[1]);
    char **commands[maxCommands];
    int count = 0;
    commands[count++] = argv + 2;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], ":::") != 0) continue;
        if (count == maxCommands) {
            fprintf(stderr, "interleave: at most %d commands\n", maxCommands);
            return 2;
        }
        argv[i] = NULL;
        commands[count++] = argv + i + 1;
    }
    double *times = calloc((size_t)count * runs, sizeof *times);
    int devnull = open("/dev/null", O_WRONLY);
    if (!times || devnull < 0) {
        perror("interleave");
        return 2;
    }
    const char *settle = getenv("INTERLEAVE_SYNC");
    int syncFirst = settle && strcmp(settle, "1") == 0;
    for (int round = 0; round < runs + warmup; round++) {
        for (int step = 0; step < count; step++) {
            int c = (round + step) % count;
            if (syncFirst) sync();
            double start = now_ms();
            pid_t pid = fork();
            if (pid == 0) {
                dup2(devnull, 1);
                execvp(commands[c][0], commands[c]);
                _exit(127);
            }
            int status = 0;
            if (pid < 0 || waitpid(pid, &status, 0) < 0) {
                perror("interleave");
                return 2;
            }
            double elapsed = now_ms() - start;
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                fprintf(stderr, "interleave: %s exited with status %d\n", commands[c][0],
                        WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
                return 2;
            }
            if (round >= warmup) times[c * runs + round - warmup] = elapsed;
        }
    }
    // Each command's ratios to the peer, round by round, before the times are sorted.
    double *ratios = calloc((size_t)count * runs, sizeof *ratios);
    if (!ratios) {
        perror("interleave");
        return 2;
    }
    double *peerTimes = times + (count - 1) * runs;
    for (int c = 0; c < count; c++) {
        for (int r = 0; r < runs; r++) ratios[c * runs + r] = times[c * runs + r] / peerTimes[r];
        qsort(ratios + c * runs, runs, sizeof *ratios, compare);
    }
    int spread = 0;  // ceil(0.98 sqrt(runs)), without libm
    while (spread * spread * 10000.0 < 9604.0 * runs) spread++;
    int low = runs / 2 - spread < 0 ? 0 : runs / 2 - spread;
    int high = runs / 2 + spread >= runs ? runs - 1 : runs / 2 + spread;
    double peer = 0;
    for (int c = count - 1; c >= 0; c--) {
        double *t = times + c * runs;
        qsort(t, runs, sizeof *t, compare);
        if (c == count - 1) peer = t[runs / 2];
    }
    for (int c = 0; c < count; c++) {
        double *t = times + c * runs, *q = ratios + c * runs;
        printf("%8.3f ms  p25 %6.3f  p10 %6.3f  %5.2fx  paired %5.2fx [%4.2f %4.2f] ", t[runs / 2], t[runs / 4],
               t[runs / 10], t[runs / 2] / peer, q[runs / 2], q[low], q[high]);
        for (char **arg = commands[c]; *arg; arg++) printf(" %s", *arg);
        printf("\n");
    }
    return 0;
}
