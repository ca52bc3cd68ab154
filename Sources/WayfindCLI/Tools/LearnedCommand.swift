import WayfindCore

/// A command the set-up learns (`--learn CMD` or `--learn CMD:N`), and which of its
/// arguments is its place: the Nth that is not an option (`CMD:N`), skipping the values
/// of the option letters that take one; by default the last one. Known commands have
/// their own rule: ssh and mosh's place is the host (the first argument that is not an
/// option, skipping `-p 2200` and the like; what follows is the remote command); scp's
/// is the host of its first remote operand; cd's is its first argument.
struct LearnedCommand: Sendable, Equatable {
    /// The command's name.
    var name: String
    /// Which argument that is not an option is the place, from 1; 0 for the last; -1 for
    /// scp's: the host of the first remote operand (`[user@]host:path`).
    var position: Int
    /// The option letters whose value is the next argument (`-p 2200`).
    var lettersWithValues: String

    /// The built-in rules: the option letters of ssh(1) that take a value, mosh(1)'s.
    static let knownRules: [String: (position: Int, letters: String)] = [
        "ssh": (1, "BbcDEeFIiJLlmOopQRSWw"), "mosh": (1, "p"), "cd": (1, ""), "scp": (-1, "cDFiJloPSX"),
    ]

    /// `CMD` or `CMD:N`; nil when CMD cannot be learned or N is not a number ≥ 1.
    init?(_ text: String) {
        var name = text
        var position: Int? = nil
        if let colon = text.lastIndex(of: ":") {
            name = String(text[..<colon])
            guard let n = Int(text[text.index(after: colon)...]), n >= 1 else { return nil }
            position = n
        }
        guard ShellInit.isLearnable(name) else { return nil }
        let known = Self.knownRules[name]
        spelling = text
        self.name = name
        self.position = position ?? known?.position ?? 0
        lettersWithValues = known?.letters ?? ""
    }

    /// As given to `--learn`.
    var spelling: String

    /// The rule as the set-up's `__wayfind_place_index` takes it: `N LETTERS` (`-` for
    /// no letters).
    var rule: String { "\(position) \(lettersWithValues.isEmpty ? "-" : lettersWithValues)" }
}

extension LearnedCommand {
    /// The learned command whose places are directories: the set-up records them at the
    /// prompt, and `--learned cd` takes them as cd does.
    static let directories = "cd"

    /// `text` as a learned directory, as cd would name it after going there with
    /// `$PWD` being `current`: absolute, with `.`, `..` and repeated or trailing slashes
    /// resolved by the letters (`cd -L`, the shell's default, which keeps symbolic
    /// links), as the shell's `$PWD` that the prompt hook records is. Nil when `text` is
    /// relative and `current` is not an absolute path.
    static func directory(_ text: String, from current: String?) -> String? {
        var path = text
        if !text.hasPrefix("/") {
            guard let current, current.hasPrefix("/") else { return nil }
            path = current + "/" + text
        }
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
