import Foundation
import Testing
import WayfindCLI
import WayfindTestSupport

/// The committed man pages pass groff and each completion loads in its real shell; the
/// binaries fail on a full disk on every path that prints. (That the committed files are
/// what the flag tables make now is GeneratedFilesTests', with the other generated files.)
@Suite struct ManPagesAndCompletionsEndToEndTests {
    /// wayfind and every tool.
    static let tools = [MultiCall.name] + Binaries.tools

    /// grep exits 2 when it cannot write its output; so does every path of every tool that
    /// prints, `--help` and `--version` included (they used to exit 0 into a full disk).
    @Test(arguments: tools)
    func aFullDiskIsAWriteErrorOnEveryOutputPath(tool: String) async throws {
        for arguments in [["--help"], ["--version"], ["--generate=man"], ["--generate=complete-fish"]] {
            let r = try await Binaries.shell("\(tool) \(arguments.joined(separator: " ")) > /dev/full; echo \"status=$?\"")
            #expect(r.out == "status=2\n", "\(tool) \(arguments)")
            #expect(r.stderr == "\(tool): write error: No space left on device\n", "\(tool) \(arguments)")
        }
    }

    @Test(arguments: tools)
    func manPagesPassGroffWithoutWarnings(tool: String) async throws {
        let r = try await Binaries.shell("groff -man -ww -z \(Repository.root.path)/man/\(tool).1")
        #expect(r.status == 0)
        #expect(r.stderr == "")
    }

    /// Rendered, no page shows a font escape as text (`\fB` escaped by mistake) or a
    /// control character (an escape that lost its backslash).
    @Test func renderedManPagesShowNoRoffEscapesOrControlCharacters() async throws {
        let man = Repository.root.appendingPathComponent("man")
        let pages = try FileManager.default.contentsOfDirectory(atPath: man.path).filter { $0.hasSuffix(".1") || $0.hasSuffix(".5") }
        #expect(pages.count >= 6)
        for page in pages {
            let r = try await Binaries.shell("groff -man -Tutf8 -P -cbou '\(man.path)/\(page)'")
            #expect(r.status == 0, "\(page): \(r.stderr)")
            for escape in [#"\fB"#, #"\fR"#, #"\fI"#] {
                #expect(!r.out.contains(escape), "\(page) shows \(escape)")
            }
            let controls = r.out.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" }
            #expect(controls.isEmpty, "\(page) shows control characters \(controls.map { $0.value })")
        }
    }

    @Test(arguments: tools)
    func theBashCompletionLoadsAndCompletesLongOptions(tool: String) async throws {
        let file = Repository.root.appendingPathComponent("completions/bash/\(tool)").path
        let script = """
            source '\(file)'
            complete -p \(tool) >/dev/null || exit 3
            fn=$(complete -p \(tool) | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
            COMP_WORDS=(\(tool) --he); COMP_CWORD=1; COMP_LINE='\(tool) --he'; COMP_POINT=${#COMP_LINE}
            "$fn" \(tool) --he \(tool)
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let r = try await Binaries.shell(script)
        #expect(r.status == 0, "\(r)")
        #expect(r.out.contains("--help"), "\(r)")
    }

    /// Every tool's zsh function is found on `fpath` and registered (one full `compinit`
    /// for all of them: it reads every function on `fpath`).
    @Test(.enabled(if: TestProcess.isInstalled("zsh")))
    func theZshCompletionsLoad() async throws {
        let dir = Repository.root.appendingPathComponent("completions/zsh").path
        let dump = try TestFiles.directory().appendingPathComponent("zcompdump").path
        let r = try await Binaries.shell(
            "zsh -f -c 'fpath=(\(dir) $fpath); autoload -U compinit; compinit -u -d \(dump); "
                + "for tool in \(Self.tools.joined(separator: " ")); do autoload -U _$tool && print ${_comps[$tool]} || exit 1; done'")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == Self.tools.map { "_\($0)" }, "\(r)")
    }

    @Test(.enabled(if: TestProcess.isInstalled("fish")), arguments: tools)
    func theFishCompletionLoadsAndCompletesLongOptions(tool: String) async throws {
        let file = Repository.root.appendingPathComponent("completions/fish/\(tool).fish").path
        let r = try await Binaries.shell("fish --no-config -c \"source '\(file)'; complete -C '\(tool) --hel'\"")
        #expect(r.status == 0, "\(r)")
        #expect(r.out.contains("--help"), "\(r)")
    }
}
