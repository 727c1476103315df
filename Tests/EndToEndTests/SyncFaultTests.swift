import Foundation
import Testing

/// Sync under the faults of a real machine: a process killed between the history's commit and
/// the journal, a full disk and a read-only folder under the journal. After each, every
/// device's export is the same, and nothing is lost or doubled (docs/sync.md).
@Suite(.serialized)
struct SyncFaultTests {
    /// An LD_PRELOAD shim that kills the process (SIGKILL) at the moment `$KILL_AT` names:
    /// `open`, as a journal (`*.jsonl`) is about to be opened to append, so after the
    /// history's commit and before a byte of the journal; or `fsync`, once the journal's new
    /// lines are durable and before the history notes that they were written.
    static let killSource = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <fcntl.h>
        #include <signal.h>
        #include <stdarg.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/types.h>

        static int journal = -1;

        static int moment(const char *name) {
            const char *at = getenv("KILL_AT");
            return at && strcmp(at, name) == 0;
        }

        static int appendsToJournal(const char *path, int flags) {
            size_t length = strlen(path);
            return (flags & O_APPEND) && length > 6 && strcmp(path + length - 6, ".jsonl") == 0;
        }

        static int opened(const char *symbol, const char *path, int flags, mode_t mode) {
            static int (*real)(const char *, int, ...);
            if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, symbol);
            int journalAppend = appendsToJournal(path, flags);
            if (journalAppend && moment("open")) raise(SIGKILL);
            int fd = real(path, flags, mode);
            if (fd >= 0 && journalAppend) journal = fd;
            return fd;
        }

        int open(const char *path, int flags, ...) {
            mode_t mode = 0;
            if (flags & O_CREAT) { va_list list; va_start(list, flags); mode = va_arg(list, int); va_end(list); }
            return opened("open", path, flags, mode);
        }

        int open64(const char *path, int flags, ...) {
            mode_t mode = 0;
            if (flags & O_CREAT) { va_list list; va_start(list, flags); mode = va_arg(list, int); va_end(list); }
            return opened("open64", path, flags, mode);
        }

        int fsync(int fd) {
            static int (*real)(int);
            if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
            int result = real(fd);
            if (fd == journal && moment("fsync")) raise(SIGKILL);
            return result;
        }
        """

    /// The kill shim, built once with the system's C compiler.
    static let killShim: Result<String, SteppedClockTests.ShimError> = {
        guard let folder = try? temporaryDirectory() else { return .failure(.init(reason: "no temporary folder")) }
        let source = folder.appendingPathComponent("kill.c")
        let library = folder.appendingPathComponent("kill.so")
        do { try killSource.write(to: source, atomically: true, encoding: .utf8) } catch { return .failure(.init(reason: "\(error)")) }
        guard let built = try? shell("cc -shared -fPIC -o '\(library.path)' '\(source.path)' -ldl 2>&1"), built.status == 0 else {
            return .failure(.init(reason: "cannot build the kill shim: install a C compiler (cc)"))
        }
        return .success(library.path)
    }()

    /// This device's id, as `sync status` names it.
    static func deviceID(_ d: SyncTests.Devices, _ device: String) throws -> String {
        let status = try d.routine(device, ["sync", "status"]).stdout
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("this device") })
        return String(try #require(line.split(separator: "(").last?.dropLast()))
    }

    /// What both devices and a rebuild from the folder must agree on, each log once.
    static func expectAgreement(_ d: SyncTests.Devices, habits: [String]) throws {
        try d.routine("laptop", ["sync"])
        try d.routine("desk", ["sync"])
        let laptop = try d.export("laptop")
        for habit in habits {
            #expect(laptop.components(separatedBy: "\"\(habit)\"").count == 2, "\(habit) once: \(laptop)")
        }
        #expect(try d.export("desk") == laptop)
        let rebuilt = d.dir.appendingPathComponent("rebuilt-\(UUID().uuidString).sqlite").path
        try d.routine("desk", ["history", "rebuild", rebuilt, "--from-sync"])
        #expect(try execute(["history", "export", "--history", rebuilt]).stdout == laptop)
    }

    /// Killed after the history's commit and before the journal (`open`), or after the
    /// journal and before the history knew (`fsync`): the log is kept, the next command
    /// writes what is owed (its own lines past the recorded size are not taken for a copied
    /// history's), and no device holds it twice.
    @Test(arguments: ["open", "fsync"])
    func aKillBetweenTheHistoryAndTheJournalLosesAndDoublesNothing(_ moment: String) throws {
        let library = try Self.killShim.get()
        let d = try SyncTests.Devices()
        let folder = d.dir.appendingPathComponent("shared").path
        try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
        try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
        let id = try Self.deviceID(d, "laptop")
        let killed = try execute(
            ["done", d.file, "water", "--date", "2026-11-23", "--history", d.history("laptop")],
            environment: ["LD_PRELOAD": library, "KILL_AT": moment])
        #expect(killed.status == SIGKILL, "not killed at \(moment): \(killed.status) \(killed.stderr)")
        let journal = try d.journalFiles(in: folder).filter { $0.hasPrefix(id) }.map {
            try String(contentsOfFile: folder + "/" + $0, encoding: .utf8)
        }.joined()
        #expect(journal.contains("water") == (moment == "fsync"), "\(journal)")
        #expect(try d.export("laptop").contains("\"water\""), "the commit came before the kill")
        let next = try d.routine("laptop", ["done", "FILE", "read", "--date", "2026-11-23"])
        #expect(!next.stderr.contains("E70"), "\(next.stderr)")
        #expect(try Self.deviceID(d, "laptop") == id, "a crash is not a copied history")
        try Self.expectAgreement(d, habits: ["water", "read"])
    }

    /// The journal's disk is full: the command records and warns (E703), owes the events,
    /// leaves no part of a line, and writes them once there is room.
    @Test func aFullDiskUnderTheJournalLosesNothing() throws {
        let clock = try SteppedClockTests.shim.get()
        try onSmallDisk(size: "256k") { disk in
            let d = try SyncTests.Devices()
            let folder = disk.appendingPathComponent("shared").path
            try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
            try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
            let filler = disk.appendingPathComponent("filler").path
            _ = try shell("dd if=/dev/zero of='\(filler)' bs=4k count=1000 2>/dev/null")
            // A month's journal of its own (the clock 40 days on), so that its first line
            // needs a new block rather than room left in the current file's last one.
            let shift = d.dir.appendingPathComponent("shift").path
            try "\(40 * 86_400)".write(toFile: shift, atomically: true, encoding: .utf8)
            let full = try execute(
                ["done", d.file, "water", "--date", "2026-11-23", "--history", d.history("laptop")],
                environment: ["LD_PRELOAD": clock, "CLOCK_SHIFT_FILE": shift])
            #expect(full.status == 0, "\(full.stderr)")
            #expect(full.stderr.contains("E703"), "\(full.stderr)")
            #expect(try d.routine("laptop", ["sync", "status"]).stdout.contains("not written yet: 1"))
            for journal in d.journalFiles(in: folder) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + journal))
                #expect(bytes.isEmpty || bytes.last == 0x0A, "\(journal) ends inside a line")
            }
            try FileManager.default.removeItem(atPath: filler)
            // The log is dated 40 days ahead: the desk holds it until its clock is there too.
            var shifted: [String] = []
            for (device, arguments) in [
                ("laptop", ["sync"]), ("desk", ["sync"]), ("laptop", ["history", "export"]), ("desk", ["history", "export"]),
            ] {
                let result = try execute(
                    arguments + ["--history", d.history(device)], environment: ["LD_PRELOAD": clock, "CLOCK_SHIFT_FILE": shift])
                #expect(result.status == 0, "\(device) \(arguments): \(result.stderr)")
                shifted.append(result.stdout)
            }
            #expect(shifted[2].components(separatedBy: "\"water\"").count == 2, "\(shifted[2])")
            #expect(shifted[3] == shifted[2])
        }
    }

    /// The journal's folder is mounted read-only: the command records and warns (E703); once
    /// it is writable again the next command writes what is owed.
    @Test func aReadOnlyFolderUnderTheJournalLosesNothing() throws {
        try onSmallDisk(size: "1m") { disk in
            let d = try SyncTests.Devices()
            let folder = disk.appendingPathComponent("shared").path
            try d.routine("laptop", ["sync", "init", folder, "--device", "laptop"])
            try d.routine("desk", ["sync", "init", folder, "--device", "desk"])
            #expect(try shell("mount -o remount,ro '\(disk.path)'").status == 0)
            let refused = try d.routine("laptop", ["done", "FILE", "water", "--date", "2026-11-23"])
            #expect(refused.stderr.contains("E703"), "\(refused.stderr)")
            let stillReads = try d.routine("desk", ["sync"])
            #expect(stillReads.stdout.contains("nothing new"), "\(stillReads.stdout)")
            #expect(try shell("mount -o remount,rw '\(disk.path)'").status == 0)
            try d.routine("laptop", ["done", "FILE", "read", "--date", "2026-11-23"])
            try Self.expectAgreement(d, habits: ["water", "read"])
        }
    }
}
