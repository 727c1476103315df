// Starting a child that the kernel ends when its parent ends, however the parent ends:
// PR_SET_PDEATHSIG must be set in the child between fork and exec, which posix_spawn cannot do
// and Swift cannot safely do (only async-signal-safe calls may run there).
#include <fcntl.h>
#include <signal.h>
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
