// Starting a child that the kernel ends when its parent ends, however the parent ends:
// PR_SET_PDEATHSIG must be set in the child between fork and exec, which posix_spawn cannot do
// and Swift cannot safely do (only async-signal-safe calls may run there).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

// Runs `program` (an absolute path) with `argv`, its standard input `input` and output
// `output`, with default signal handling, killed when the thread that called this ends (so
// call it from a thread that lasts as long as the process). Returns the child's id, or -1.
static inline pid_t routine_spawn_tied(const char *program, char *const argv[], int input, int output) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) return pid;
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
    // Dispositions set to ignore outlive exec: the child gets the defaults back.
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, 0);
    if (dup2(input, 0) < 0 || dup2(output, 1) < 0) _exit(127);
    // A long-lived child must hold no other descriptor of the caller: a writing end of
    // someone's pipe held here would keep its reader from ever seeing the end.
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
#endif
        for (int fd = 3; fd < 65536; fd++) close(fd);
    execv(program, argv);
    _exit(127);
}

// Starts `program` (an absolute path) with `argv` apart from the caller, for a program that
// outlives it (the studio a bar's click opens): a session of its own, so the bar's process
// group and terminal do not reach it; standard input and output on /dev/null; and no other
// descriptor of the caller, whose pipes (a bar's, a test's) would otherwise stay open until
// the program ends, so that whoever reads them to their end would wait for it. Returns the
// child's id, or -1.
static inline pid_t routine_spawn_detached(const char *program, char *const argv[]) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    setsid();
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, 0);
    int null = open("/dev/null", O_RDWR);
    if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0) _exit(127);
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
#endif
        for (int fd = 3; fd < 65536; fd++) close(fd);
    execv(program, argv);
    _exit(127);
}

// GNU extensions that the Swift importer does not see (they need _GNU_SOURCE). The second is
// glibc 2.34's; weak, so that an older C library leaves it null instead of failing to load.
extern int pipe2(int ends[2], int flags);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from) __attribute__((weak));

// A pipe whose ends close on exec from the moment they exist: made in two steps (pipe, then
// fcntl), a child started by another thread in between would inherit both ends.
static inline int routine_pipe_cloexec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}

// Adds to `actions` the closing of every descriptor from 3 up, so that a spawned child holds
// only its standard streams, whatever the caller had open without close-on-exec (a test's or
// a caller's pipe). Without glibc 2.34 it does nothing.
static inline void routine_spawn_close_others(posix_spawn_file_actions_t *actions) {
    if (posix_spawn_file_actions_addclosefrom_np) posix_spawn_file_actions_addclosefrom_np(actions, 3);
}
