import Foundation
import Testing

/// `today --notify` with a real notification server: dunst under Xvfb in a private D-Bus
/// session, its actions invoked with `dunstctl action` (dunst hands a notification's actions to
/// its `dmenu` program, here a script that picks the label the test asks for). And with a stub
/// notify-send for a server that refuses actions.
@Suite(.serialized)
struct NotificationActionTests {
    static let routine = """
        routine "Bell"
        habit water "Water" -> pushups
        habit pushups "Push-ups" target 20 reps

        """

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// Shell lines run before `today --notify` starts.
        let setup: String
        /// The labels picked, one notification each.
        let picks: [String]
        /// `today --format short` after.
        let after: String
        /// Texts that the notifications shown (dunst's history) hold.
        let shown: [String]
        var testDescription: String { name }
    }

    static let date = "2026-11-25"

    static let cases: [Case] = [
        Case(name: "done", setup: "", picks: ["Done"], after: "1/2 · Push-ups", shown: ["2 habits still due today (0 of 2 done)"]),
        Case(name: "skip", setup: "", picks: ["Skip"], after: "0/2 · Push-ups", shown: []),
        Case(
            name: "numeric done records the target", setup: "\"$ROUTINE\" done \"$FILE\" water --date \(date) --history \"$H\"",
            picks: ["Done"], after: "2/2", shown: ["Done records 20 reps; another amount: routine done ", " pushups VALUE"]),
        Case(name: "snooze, then done", setup: "", picks: ["Snooze", "Done"], after: "1/2 · Push-ups", shown: []),
    ]

    /// Runs `today --notify` against dunst, picking `picks` in turn; returns dunst's history
    /// (every notification shown, as JSON) and `today`'s result.
    func underDunst(_ dir: URL, setup: String = "", before: String = "", picks: [String]) throws -> (history: String, status: String, stderr: String)
    {
        let script = """
            set -u
            W='\(dir.path)'
            export HOME="$W/home" XDG_CONFIG_HOME="$W/config" XDG_RUNTIME_DIR="$W/run"
            mkdir -p "$HOME" "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME/dunst"; chmod 700 "$XDG_RUNTIME_DIR"
            printf '#!/bin/sh\\ncat > "%s/menu"\\ngrep -m1 "^#$(cat "%s/pick")" "%s/menu"\\n' "$W" "$W" "$W" > "$W/dmenu"; chmod +x "$W/dmenu"
            printf '[global]\\ndmenu = %s/dmenu\\n' "$W" > "$XDG_CONFIG_HOME/dunst/dunstrc"
            Xvfb -displayfd 3 -nolisten tcp 3>"$W/display" >/dev/null 2>&1 & X=$!
            for i in $(seq 200); do [ -s "$W/display" ] && break; sleep 0.05; done
            export DISPLAY=":$(head -n1 "$W/display")"
            dunst -config "$XDG_CONFIG_HOME/dunst/dunstrc" >"$W/dunst.log" 2>&1 & D=$!
            for i in $(seq 200); do
              dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q true && break
              sleep 0.05
            done
            \(setup.isEmpty ? ":" : setup)
            "$ROUTINE" today "$FILE" --date \(Self.date) --history "$H" --notify --snooze 1s >"$W/out" 2>"$W/err" & R=$!
            first=1
            for pick in \(picks.map { "'\($0)'" }.joined(separator: " ")); do
              for i in $(seq 600); do [ "$(dunstctl count displayed)" -ge 1 ] && break; sleep 0.05; done
              if [ $first = 1 ]; then \(before.isEmpty ? ":" : before); first=0; fi
              printf '%s' "$pick" > "$W/pick"
              dunstctl action 0
              for i in $(seq 600); do [ "$(dunstctl count displayed)" -eq 0 ] && break; sleep 0.05; done
            done
            for i in $(seq 600); do kill -0 $R 2>/dev/null || break; sleep 0.05; done
            kill $R 2>/dev/null; wait $R; echo $? > "$W/status"
            dunstctl close-all; sleep 0.2
            dunstctl history > "$W/history"
            kill $D $X; wait $D $X 2>/dev/null
            """
        try script.write(to: dir.appendingPathComponent("script.sh"), atomically: true, encoding: .utf8)
        let environment = ["FILE": dir.appendingPathComponent("bell.rt").path, "H": dir.appendingPathComponent("h.sqlite").path]
        let ran = try shell("timeout 120 dbus-run-session -- bash '\(dir.path)/script.sh'", environment: environment)
        #expect(ran.status == 0, "\(ran.stderr)")
        let read = { (name: String) in (try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)) ?? "" }
        return (read("history"), read("status").trimmingCharacters(in: .whitespacesAndNewlines), read("err"))
    }

    func folder() throws -> URL {
        let dir = try temporaryDirectory()
        try Self.routine.write(to: dir.appendingPathComponent("bell.rt"), atomically: true, encoding: .utf8)
        return dir
    }

    func short(_ dir: URL) throws -> String {
        try execute(["today", "bell.rt", "--date", Self.date, "--history", "h.sqlite", "--format", "short"], in: dir).stdout
    }

    @Test(arguments: cases)
    func anActionOfARealNotificationServerIsRecordedByTheRulesOfDone(_ c: Case) throws {
        let dir = try folder()
        let result = try underDunst(dir, setup: c.setup, picks: c.picks)
        #expect(result.status == "0", "\(result.stderr)")
        #expect(try short(dir) == c.after + "\n")
        for text in c.shown { #expect(result.history.contains(text), "\(text) in \(result.history)") }
        if c.picks.first == "Snooze" {
            // Each notification once in dunst's history, its summary a field of its own.
            #expect(result.history.components(separatedBy: "still due today (0 of 2 done)\"").count - 1 == 2, "notified again after the snooze")
        }
    }

    /// The habit is done from the shell while the notification is up: its Done is refused by the
    /// rules of `routine done` (E501), said in a second notification, and nothing is written.
    @Test func aRefusedActionSaysWhyAndWritesNothing() throws {
        let dir = try folder()
        let result = try underDunst(dir, before: "\"$ROUTINE\" done \"$FILE\" water --date \(Self.date) --history \"$H\" >/dev/null", picks: ["Done"])
        #expect(result.status == "0", "\(result.stderr)")
        #expect(result.history.contains("not recorded: Water"), "\(result.history)")
        #expect(result.history.contains("is already done on Wednesday 2026-11-25"))
        let export = try execute(["history", "export", "--history", "h.sqlite"], in: dir)
        #expect(export.stdout.components(separatedBy: "\"node\":\"water\"").count - 1 == 1, "\(export.stdout)")
    }

    /// A server that refuses actions (notify-send says so and shows the notification plainly):
    /// the notification is replaced by one that says how to act from the shell.
    @Test func withoutActionsTheNotificationSaysHowToActFromTheShell() throws {
        let dir = try folder()
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = dir.appendingPathComponent("calls").path
        let stub = """
            #!/bin/sh
            for a in "$@"; do printf '%s\\n' "$a"; done >> '\(record)'
            echo --- >> '\(record)'
            case "$*" in *--action=*) echo 7; echo "Actions are not supported by this notifications server. Displaying non-interactively." >&2 ;; esac

            """
        try stub.write(to: bin.appendingPathComponent("notify-send"), atomically: true, encoding: .utf8)
        chmod(bin.appendingPathComponent("notify-send").path, 0o755)
        #expect(try execute(["done", "bell.rt", "water", "--date", Self.date, "--history", "h.sqlite"], in: dir).status == 0)
        let sent = try execute(
            ["today", "bell.rt", "--date", Self.date, "--history", "h.sqlite", "--notify"], environment: ["PATH": bin.path + ":/usr/bin:/bin"],
            in: dir)
        #expect(sent.status == 0, "\(sent.stderr)")
        let calls = try String(contentsOfFile: record, encoding: .utf8).components(separatedBy: "---\n").filter { !$0.isEmpty }
        try #require(calls.count == 2, "\(calls)")
        #expect(calls[0].contains("--action=done=Done: Push-ups\n--action=skip=Skip\n--action=snooze=Snooze 10m\n--\n"))
        let file = dir.appendingPathComponent("bell.rt").path
        #expect(
            calls[1].hasPrefix("--app-name=routine\n--icon=appointment-soon\n--replace-id=7\n--\n1 habit still due today (1 of 2 done)\n"),
            "\(calls[1])")
        #expect(calls[1].contains("from the shell:\nroutine done \(file) pushups 20\nroutine done \(file) pushups --skip\n"), "\(calls[1])")
        #expect(try short(dir) == "1/2 · Push-ups\n", "nothing recorded")
    }
}

/// The bar's clicks and its refresh by signal.
@Suite(.serialized)
struct BarClickTests {
    @Test func clicksMarkTheShownHabitDoneOrSkippedAndAQuestionIsShownAsOne() throws {
        let f = try TodayCommandTests.prepared()
        let base = ["today", "FILE", "--date", "2026-11-25"]
        #expect(try f.routine(base + ["--format", "tmux"]).stdout == "2/4 · Run\n")
        let left = try f.routine(base + ["--click", "left"])
        #expect(left.status == 0 && left.stdout.isEmpty, "\(left.stderr)")
        #expect(try f.routine(base + ["--format", "short"]).stdout == "3/4 · mood?\n")
        let bar = try f.routine(base + ["--format", "waybar"])
        #expect(bar.stdout.hasPrefix(#"{"text":"3/4 · mood?","#), "\(bar.stdout)")
        #expect(try f.routine(["done", "FILE", "run", "--date", "2026-11-25", "--undo"]).status == 0)
        // i3blocks runs the same command on a click, with the button in BLOCK_BUTTON (3: right).
        let right = try execute(
            ["today", f.file, "--date", "2026-11-25", "--history", f.history, "--format", "i3blocks"], environment: ["BLOCK_BUTTON": "3"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stdout == "2/4 done · next: mood?\n2/4\n#50FA7B\n", "\(right.stdout)")
        let json = try f.routine(base + ["--json"])
        #expect(json.stdout.contains(#""node":"run","#) && json.stdout.contains(#""status":"skipped""#), "\(json.stdout)")
    }

    /// A middle click starts the studio on the bar's routine and history, which opens the
    /// browser through `xdg-open` (here a stub that records its command line and that of the
    /// studio, its parent): a one-time address, no token in either command line.
    @Test
    func aMiddleClickOpensTheStudio() throws {
        let f = try TodayCommandTests.prepared()
        let bin = f.dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let stub = bin.appendingPathComponent("xdg-open").path
        try """
        #!/bin/sh
        tr '\\0' '\\n' < /proc/$PPID/cmdline > "$0.studio"
        echo $PPID > "$0.pid"
        tr '\\0' '\\n' < /proc/$$/cmdline > "$0.tmp" && mv "$0.tmp" "$0.cmdline"

        """.write(toFile: stub, atomically: true, encoding: .utf8)
        chmod(stub, 0o755)
        let token = "0123456789abcdef0123456789abcdef"
        let environment = ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "ROUTINE_STUDIO_TOKEN": token]
        let clicked = try execute(
            ["today", f.file, "--date", "2026-11-25", "--history", f.history, "--click", "middle"], environment: environment)
        #expect(clicked.status == 0 && clicked.stdout.isEmpty, "\(clicked.stderr)")
        var opened: String?
        for _ in 0..<400 where opened == nil {
            opened = try? String(contentsOfFile: stub + ".cmdline", encoding: .utf8)
            if opened == nil { usleep(50_000) }
        }
        let studioLine = (try? String(contentsOfFile: stub + ".studio", encoding: .utf8)) ?? ""
        if let pid = Int32(((try? String(contentsOfFile: stub + ".pid", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)),
            studioLine.contains("studio")
        {
            kill(pid, SIGTERM)
        }
        let line = try #require(opened, "xdg-open was not run")
        let address = try #require(line.split(separator: "\n").last.map(String.init))
        #expect(address.hasPrefix("http://127.0.0.1:") && address.contains("/?code="), "\(line)")
        #expect(!line.contains(token) && !studioLine.contains(token))
        // `routine studio` has replaced itself with the server, given what it checked.
        let words = studioLine.split(separator: "\n").map(String.init)
        #expect(words.first?.hasSuffix("/routine-studio") == true && words.dropFirst() == [f.file, "0", "open", f.history, "idle"], "\(studioLine)")
    }

    @Test func aClickWithNothingDueIsRefused() throws {
        let dir = try temporaryDirectory()
        try "routine \"Sat\"\nhabit a \"A\" on sat\n".write(to: dir.appendingPathComponent("s.rt"), atomically: true, encoding: .utf8)
        let result = try execute(["today", "s.rt", "--date", "2026-11-25", "--history", "h.sqlite", "--click", "left"], in: dir)
        #expect(result.status == 1 && result.stderr.contains("nothing is due"), "\(result.stderr)")
    }

    /// A fake bar named `waybar` that counts SIGRTMIN+8: `done` with ROUTINE_BAR_SIGNAL=8 sends
    /// it, and without the variable nothing is sent.
    @Test
    func aLogSignalsTheBar() throws {
        let dir = try temporaryDirectory()
        try "routine \"Sig\"\nhabit a \"A\"\nhabit b \"B\"\n".write(to: dir.appendingPathComponent("s.rt"), atomically: true, encoding: .utf8)
        let hits = dir.appendingPathComponent("hits").path
        let bar = dir.appendingPathComponent("waybar").path
        try "#!/bin/bash\ntrap 'echo hit >> \"\(hits)\"' RTMIN+8\necho ready > \"\(hits).ready\"\nfor i in $(seq 1200); do sleep 0.1; done\n"
            .write(toFile: bar, atomically: true, encoding: .utf8)
        chmod(bar, 0o755)
        let pid = try #require(Self.startWithDefaultSignals(bar))
        defer {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: hits + ".ready") { usleep(50_000) }
        let count = { ((try? String(contentsOfFile: hits, encoding: .utf8)) ?? "").split(separator: "\n").count }
        #expect(try execute(["done", "s.rt", "a", "--history", "h.sqlite"], in: dir).status == 0)
        #expect(count() == 0, "no signal without ROUTINE_BAR_SIGNAL")
        #expect(try execute(["done", "s.rt", "b", "--history", "h.sqlite"], environment: ["ROUTINE_BAR_SIGNAL": "8"], in: dir).status == 0)
        for _ in 0..<600 where count() == 0 { usleep(50_000) }
        #expect(count() >= 1)
    }

    /// Starts `program` as a session starts a bar: no signal blocked, each handled by default.
    /// A test runs on a worker thread that blocks the real-time signals, and a child started
    /// from it (through `Process` too) inherits that mask: its trap would never run.
    static func startWithDefaultSignals(_ program: String) -> pid_t? {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        defer { free(argv[0]) }
        var pid = pid_t()
        return posix_spawn(&pid, program, &actions, &attributes, &argv, environ) == 0 ? pid : nil
    }
}
