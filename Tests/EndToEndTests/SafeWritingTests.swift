import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Writing a file never damages it, never changes more than its bytes, and never claims a
/// success that did not happen: links, owners, attributes, devices, FIFOs, Graphviz failures
/// and full disks.
struct SafeWritingTests {
    static let unformatted = "routine   \"R\"\nhabit  a  \"A\"\n"
    static let formatted = "routine \"R\"\nhabit a \"A\"\n"
    static var isRoot: Bool { getuid() == 0 }

    private func folder(with files: [String: String] = [:]) throws -> URL {
        let dir = try temporaryDirectory()
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: false, encoding: .utf8) }
        return dir
    }

    private func contents(_ dir: URL, _ name: String) -> String {
        (try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)) ?? "<missing>"
    }

    private func names(in dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    @Test func fmtWritesThroughASymbolicLink() throws {
        let dir = try folder(with: ["real.rt": Self.unformatted])
        let result = try shell("ln -s real.rt link.rt && $ROUTINE fmt --write link.rt && test -L link.rt && echo still-a-link", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "still-a-link\n")
        #expect(contents(dir, "real.rt") == Self.formatted)
    }

    @Test func convertFollowsALinkToAFileNotYetWritten() throws {
        let dir = try folder()
        let result = try shell(
            "ln -s made.yaml link.yaml && $ROUTINE convert \(packageRoot.path)/routines/morning.rt --to yaml -o link.yaml && test -L link.yaml",
            in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(contents(dir, "made.yaml").hasPrefix("routine: Morning"))
    }

    @Test func aHardLinkedFileIsRefusedAndBothNamesKeepTheirBytes() throws {
        let dir = try folder(with: ["one.rt": Self.unformatted])
        let result = try shell("ln one.rt two.rt && $ROUTINE fmt --write one.rt", in: dir)
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot write 'one.rt': it has 2 hard links"))
        #expect(contents(dir, "one.rt") == Self.unformatted)
        #expect(try shell("test one.rt -ef two.rt", in: dir).status == 0)
        #expect(try names(in: dir) == ["one.rt", "two.rt"])
    }

    @Test(.enabled(if: isRoot, "changing a file's owner needs root"))
    func ownerModeAndExtendedAttributesAreKept() throws {
        let dir = try folder(with: ["theirs.rt": Self.unformatted])
        let setup =
            "chown nobody:nogroup theirs.rt && chmod 640 theirs.rt && python3 -c 'import os; os.setxattr(\"theirs.rt\", \"user.tag\", b\"kept\")'"
        let result = try shell(
            "\(setup) && $ROUTINE fmt --write theirs.rt && stat -c '%U:%G %a' theirs.rt && python3 -c 'import os; print(os.getxattr(\"theirs.rt\", \"user.tag\").decode())'",
            in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "nobody:nogroup 640\nkept\n")
        #expect(contents(dir, "theirs.rt") == Self.formatted)
    }

    @Test(.enabled(if: isRoot, "dropping to another user needs root"))
    func aFileTheUserCannotWriteIsRefusedEvenInAWritableFolder() throws {
        let dir = try folder(with: ["root.rt": Self.unformatted])
        let result = try shell(
            """
            chmod 777 . && cp "$ROUTINE" ./routine-copy && chmod 755 ./routine-copy && \
            setpriv --reuid=nobody --regid=nogroup --clear-groups ./routine-copy fmt --write root.rt
            """, in: dir)
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot write 'root.rt': permission denied"))
        #expect(contents(dir, "root.rt") == Self.unformatted)
        #expect(try names(in: dir) == ["root.rt", "routine-copy"])
    }

    @Test func devicesAndStandardOutputAreWrittenNotReplaced() throws {
        let result = try shell(
            """
            $ROUTINE convert routines/morning.rt --to yaml -o /dev/null 2>/dev/null && test -c /dev/null && \
            $ROUTINE convert routines/morning.rt --to yaml -o /dev/stdout 2>/dev/null | head -1
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "routine: Morning\n")
    }

    @Test func aFIFOIsWrittenByConvertAndRefusedByFmt() throws {
        let dir = try folder()
        let result = try shell(
            """
            mkfifo pipe && (cat pipe > received &) && \
            $ROUTINE convert \(packageRoot.path)/routines/morning.rt --to yaml -o pipe 2>/dev/null && sleep 0.2 && test -p pipe && head -1 received && \
            $ROUTINE fmt --write pipe; echo "fmt: $?"
            """, in: dir)
        #expect(result.stdout == "routine: Morning\nfmt: 74\n")
        #expect(result.stderr.contains("cannot write 'pipe': it is not a regular file"))
    }

    @Test func aNameOf255BytesCanBeRewritten() throws {
        let name = String(repeating: "n", count: 252) + ".rt"
        let dir = try folder(with: [name: Self.unformatted])
        let result = try shell("$ROUTINE fmt --write \(name)", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(contents(dir, name) == Self.formatted)
        #expect(try names(in: dir) == [name])
    }

    @Test(arguments: [
        ("dot fails", "exit 3", "Graphviz's dot exited with status 3"),
        ("dot writes nothing", "cat > /dev/null", "Graphviz's dot wrote nothing"),
        ("dot is killed", "kill -9 $$", "Graphviz's dot was killed by signal 9"),
    ])
    func aFailedRenderingKeepsTheOldImage(_ name: String, _ body: String, _ message: String) throws {
        let dir = try folder(with: ["old.svg": "<svg>good</svg>\n"])
        let result = try shell(
            """
            mkdir bin && printf '#!/bin/sh\\n\(body)\\n' > bin/dot && chmod +x bin/dot && \
            PATH="$PWD/bin:$PATH" $ROUTINE graph \(packageRoot.path)/routines/morning.rt -o old.svg
            """, in: dir)
        #expect(result.status == 74, "\(name)")
        #expect(result.stderr.contains("cannot write 'old.svg': \(message); the file was left as it was"), "\(name): \(result.stderr)")
        #expect(contents(dir, "old.svg") == "<svg>good</svg>\n", "\(name)")
        #expect(try names(in: dir) == ["bin", "old.svg"], "\(name)")
    }

    @Test(.enabled(if: isRoot, "mounting a small file system needs root"))
    func aFullDiskKeepsTheOldImageAndLeavesNoTemporaryFile() throws {
        let dir = try folder()
        let tmp = try folder()
        defer { _ = try? shell("umount '\(dir.path)'") }
        let result = try shell(
            """
            mount -t tmpfs -o size=16k tmpfs . && cd '\(dir.path)' && echo good > keep.svg && \
            (dd if=/dev/zero of=fill bs=1k count=64 2>/dev/null; true) && \
            TMPDIR='\(tmp.path)' $ROUTINE graph \(packageRoot.path)/routines/morning.rt -o keep.svg
            """, in: dir)
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot write 'keep.svg'"))
        #expect(contents(dir, "keep.svg") == "good\n")
        #expect(try names(in: dir) == ["fill", "keep.svg"])
        #expect(try names(in: tmp) == [])
    }

    @Test func anImageNameStartingWithADashIsAPath() throws {
        let dir = try folder()
        let result = try shell("$ROUTINE graph \(packageRoot.path)/routines/morning.rt -o -x.svg && head -c 5 ./-x.svg", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "<?xml")
        #expect(try names(in: dir) == ["-x.svg"])
    }
}
