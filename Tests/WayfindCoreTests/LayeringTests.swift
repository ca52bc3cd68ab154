import Foundation
import Testing
import WayfindTestSupport

/// The core's folders are layers, and each may use only those below it:
///
///     SearchBox                       the predicting search box: uses both below
///     RouteGraph   Places             never each other
///     Text   JSON                     never each other
///     Platform                        only the C library
///
/// The compiler keeps the targets apart (WayfindCore cannot import WayfindCLI); within
/// the core, this test does: a folder's code may name a type declared at the top level
/// of another folder only when that folder is below it. It also keeps the C library's
/// modules to Platform/.
@Suite struct LayeringTests {
    /// The folders of Sources/WayfindCore each folder may use.
    static let allowed: [String: Set<String>] = [
        "Platform": [],
        "Text": ["Platform"],
        "JSON": ["Platform"],
        "RouteGraph": ["Platform", "Text", "JSON"],
        "Places": ["Platform", "Text", "JSON"],
        "SearchBox": ["Platform", "Text", "JSON", "RouteGraph", "Places"],
    ]

    /// A source file: its folder under Sources/WayfindCore, its name and its text.
    struct Source {
        var folder: String
        var name: String
        var text: String
    }

    /// The code of `text` without comments and string literals (roughly: enough that a
    /// type named in a comment or a message does not count as a use).
    static func code(_ text: String) -> String {
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var inString = false
            var previous: Character = " "
            var kept = ""
            for c in line {
                if !inString && c == "/" && previous == "/" {
                    kept.removeLast()
                    break
                }
                if c == "\"" && previous != "\\" { inString.toggle() } else if !inString { kept.append(c) }
                previous = c
            }
            out += kept + "\n"
        }
        return out
    }

    /// The names of the types `text` declares: at the top level (`topLevel`), or anywhere.
    static func declaredTypes(_ text: String, topLevel: Bool) -> Set<String> {
        let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "typealias", "actor"]
        var names: Set<String> = []
        for line in code(text).split(separator: "\n") {
            if topLevel && line.first?.isWhitespace == true { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "{" || $0 == "<" || $0 == "=" })
            for (i, word) in words.enumerated().dropLast() where kinds.contains(word) {
                names.insert(String(words[i + 1]))
                break
            }
        }
        return names
    }

    /// The capitalized identifiers `text`'s code names.
    static func typeNames(_ text: String) -> Set<String> {
        var names: Set<String> = []
        var current = ""
        for c in code(text) + " " {
            if c.isLetter || c.isNumber || c == "_" {
                current.append(c)
            } else {
                if let first = current.first, first.isUppercase { names.insert(current) }
                current = ""
            }
        }
        return names
    }

    /// Every use of a type from a folder a file's folder may not use: `file: Type (Folder)`.
    static func violations(_ sources: [Source]) -> [String] {
        var owner: [String: String] = [:]
        var declaredIn: [String: Set<String>] = [:]
        for source in sources {
            for name in declaredTypes(source.text, topLevel: true) where owner[name] == nil { owner[name] = source.folder }
            declaredIn[source.folder, default: []].formUnion(declaredTypes(source.text, topLevel: false))
        }
        var found: [String] = []
        for source in sources {
            let mayUse = allowed[source.folder] ?? []
            for name in typeNames(source.text).sorted() {
                // A name the folder declares itself (a nested `Place`, `Suggestion`) is its own.
                guard let folder = owner[name], folder != source.folder, declaredIn[source.folder]?.contains(name) != true,
                    !mayUse.contains(folder)
                else { continue }
                found.append("\(source.folder)/\(source.name): \(name) (\(folder))")
            }
        }
        return found
    }

    /// The core's source files.
    static func coreSources() throws -> [Source] {
        let core = Repository.root.appendingPathComponent("Sources/WayfindCore")
        var sources: [Source] = []
        for folder in try FileManager.default.contentsOfDirectory(atPath: core.path).sorted() {
            let url = core.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where name.hasSuffix(".swift") {
                sources.append(Source(folder: folder, name: name, text: try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)))
            }
        }
        return sources
    }

    @Test func everyFolderOfTheCoreIsALayer() throws {
        let folders = Set(try Self.coreSources().map(\.folder))
        #expect(folders == Set(Self.allowed.keys), "a new folder needs its place in `allowed`")
    }

    @Test func eachFolderUsesOnlyTheLayersBelowIt() throws {
        let violations = Self.violations(try Self.coreSources())
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    @Test func aUseOfAHigherLayerIsCaught() {
        let sources = [
            Source(folder: "Text", name: "A.swift", text: "struct Matcher {}\n"),
            Source(folder: "Places", name: "B.swift", text: "package enum Geocoder { let m = Matcher() }\n"),
            Source(folder: "RouteGraph", name: "C.swift", text: "// Geocoder in a comment\nlet s = \"Geocoder\"\nlet g: Geocoder? = nil\n"),
            Source(folder: "JSON", name: "D.swift", text: "struct Own {\n    struct Geocoder {}\n}\nlet g = Geocoder()\n"),
        ]
        #expect(Self.violations(sources) == ["RouteGraph/C.swift: Geocoder (Places)"])
    }

    @Test func onlyPlatformImportsTheCLibraryAndTheCoreNeverTheCLI() throws {
        let sources = Repository.root.appendingPathComponent("Sources")
        var offenders: [String] = []
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for path in files where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let i = words.firstIndex(of: "import"), i + 1 < words.count else { continue }
                let module = words[i + 1]
                if ["Glibc", "Musl", "Darwin"].contains(module) && !path.hasPrefix("WayfindCore/Platform/") {
                    offenders.append("\(path): \(line)")
                }
                if module == "WayfindCLI" && path.hasPrefix("WayfindCore/") { offenders.append("\(path): \(line)") }
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }
}
