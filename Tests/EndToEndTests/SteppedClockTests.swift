import Foundation
import Testing

/// A step's seconds come from a monotonic clock: a wall clock stepped during a run (NTP, a
/// laptop waking up, a changed time zone setting) moves the timestamps, not the durations.
/// An LD_PRELOAD shim moves the process's wall clock by what a file says, read at each call.
@Suite(.serialized)
struct SteppedClockTests {
    static let shimSource = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <sys/time.h>
        #include <time.h>

        /* Seconds to add to the wall clock: the number in $CLOCK_SHIFT_FILE, 0 without one. */
        static long shift(void) {
            const char *path = getenv("CLOCK_SHIFT_FILE");
            long seconds = 0;
            FILE *file = path ? fopen(path, "r") : NULL;
            if (file) {
                if (fscanf(file, "%ld", &seconds) != 1) seconds = 0;
                fclose(file);
            }
            return seconds;
        }

        int clock_gettime(clockid_t id, struct timespec *time) {
            static int (*real)(clockid_t, struct timespec *);
            if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
            int result = real(id, time);
            if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) time->tv_sec += shift();
            return result;
        }

        int gettimeofday(struct timeval *time, void *zone) {
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            if (time) {
                time->tv_sec = now.tv_sec;
                time->tv_usec = now.tv_nsec / 1000;
            }
            (void)zone;
            return 0;
        }

        time_t time(time_t *out) {
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            if (out) *out = now.tv_sec;
            return now.tv_sec;
        }
        """

    /// The shim, built once with the system's C compiler.
    static let shim: Result<String, ShimError> = {
        guard let folder = try? temporaryDirectory() else { return .failure(ShimError(reason: "no temporary folder")) }
        let source = folder.appendingPathComponent("shift.c")
        let library = folder.appendingPathComponent("shift.so")
        do { try shimSource.write(to: source, atomically: true, encoding: .utf8) } catch { return .failure(ShimError(reason: "\(error)")) }
        guard let built = try? shell("cc -shared -fPIC -o '\(library.path)' '\(source.path)' -ldl"), built.status == 0 else {
            return .failure(ShimError(reason: "cannot build the clock shim: install a C compiler (cc)"))
        }
        return .success(library.path)
    }()

    struct ShimError: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    @Test(arguments: [7200, -7200])
    func aSteppedWallClockLeavesTheStepsTime(_ shift: Int) throws {
        let library = try Self.shim.get()
        let folder = try temporaryDirectory()
        let routine = folder.appendingPathComponent("three.rt")
        try "routine \"Three\"\nhabit a \"A\" -> b\nhabit b \"B\" -> c\nhabit c \"C\"\n".write(to: routine, atomically: true, encoding: .utf8)
        let shiftFile = folder.appendingPathComponent("shift").path
        let history = folder.appendingPathComponent("history.sqlite").path
        let session = try TmuxSession(
            command: "'\(routineBinary.path)' run '\(routine.path)' --date 2026-11-23",
            environment: ["TERM": "xterm-256color", "ROUTINE_HISTORY": history, "LD_PRELOAD": library, "CLOCK_SHIFT_FILE": shiftFile])
        try session.waitFor("Step 1 · Three")
        try session.send("Enter")
        try session.waitFor("Step 2 · Three")
        // The clock is stepped while B is in front of the person.
        try String(shift).write(toFile: shiftFile, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 0.3)
        let screen = try session.walk([("Enter", "Step 3 · Three"), ("Enter", "Enter to finish"), ("Enter", "[exit=0]")])
        #expect(screen.contains("Three: completed"))
        #expect(screen.range(of: #"took [0-9]+s\n"#, options: .regularExpression) != nil, "\(screen)")

        let export = try execute(["history", "export", "--history", history])
        let run = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let steps = try #require(run["steps"] as? [[String: Any]])
        let seconds = steps.map { $0["seconds"] as? Double ?? -1 }
        #expect(seconds.count == 3)
        // B took the 0.3 s waited, give or take the screen's polling: never two hours, never 0.
        #expect(seconds.allSatisfy { $0 > 0 && $0 < 60 }, "\(seconds)")
        #expect(seconds[1] >= 0.25, "\(seconds)")
        // The timestamps are the wall clock's, stepped as it was.
        let at = steps.compactMap { $0["at"] as? String }
        #expect(at.count == 3 && (shift > 0 ? at[1] > at[0] : at[1] < at[0]), "\(at)")
    }
}
