/*
 * Our own LD_PRELOAD library for driving Gareth001/500's server from the conformance
 * suite's adapter.  It replaces the C library's rand() and srand() and nothing else.
 *
 * The server shuffles its 43-card deck with its own Fisher-Yates loop, one rand() call
 * per position, and deals the shuffled deck by its own code.  The adapter works out, for
 * the hands a scenario needs, the 42 numbers that make that loop produce them, and writes
 * them (as decimal text) to the named pipe given in GARETH001_RAND_PIPE before each deal.
 * rand() reads the next number from the pipe, so the server waits at its shuffle until the
 * adapter has said which deal comes next.  srand() is a no-op: the server seeds from the
 * clock, and the numbers come from the pipe instead.
 *
 * Built at run time by the adapter into a temporary directory (cc -shared -fPIC).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static FILE *numbers = NULL;

void srand(unsigned int seed) {
    (void)seed;
}

int rand(void) {
    long value = 0;
    if (numbers == NULL) {
        const char *path = getenv("GARETH001_RAND_PIPE");
        if (path == NULL || (numbers = fopen(path, "r")) == NULL) {
            fputs("rand_shim: GARETH001_RAND_PIPE is not a readable pipe\n", stderr);
            _exit(97);
        }
    }
    if (fscanf(numbers, "%ld", &value) != 1 || value < 0 || value > RAND_MAX) {
        /* The adapter has gone or sent something else: stop rather than deal at random. */
        fputs("rand_shim: no number from the adapter\n", stderr);
        _exit(98);
    }
    return (int)value;
}
