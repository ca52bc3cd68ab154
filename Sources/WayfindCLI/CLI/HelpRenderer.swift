import WayfindCore

/// `--help` text, rendered from a `ToolSpec`.
///
/// The layout follows GNU tools:
///
///     smartgrep - print lines whose words start with the query
///
///     Usage: smartgrep [OPTIONS] QUERY [FILE...]
///       or:  smartgrep --help
///
///     Description, wrapped to 80 columns.
///
///     Options:
///       -m, --max-count=NUM   stop after NUM matching lines
///           --color[=WHEN]    when to use colors: never, always or auto
///       -q, --quiet           print nothing; exit 0 on the first match

/// The width `--help` wraps to: a classic terminal, whatever the real one is, so the text
/// is the same everywhere and can be snapshot-tested.
private let helpLineWidth = 80

/// The widest the option column may get; a longer option puts its help on the next line
/// rather than pushing every other help text to the right.
private let helpMaxOptionColumn = 30

/// The full `--help` text, ending in a newline.
package func renderHelp(_ spec: ToolSpec) -> String {
    var lines = ["\(spec.name) - \(spec.summary)", ""]

    for (number, usage) in spec.usage.enumerated() {
        let lead = number == 0 ? "Usage: " : "  or:  "
        lines.append(lead + [spec.name, usage].filter { !$0.isEmpty }.joined(separator: " "))
    }
    if !spec.usage.isEmpty { lines.append("") }

    for block in TextBlock.split(spec.description) {
        switch block {
        case .paragraph(let text):
            lines += TextBlock.wrap(text, width: helpLineWidth)
        case .example(let example):
            lines += example.map { "  " + $0 }
        }
        lines.append("")
    }

    if !spec.flags.isEmpty {
        lines.append("Options:")
        lines += optionLines(spec.flags)
    }
    while lines.last == "" { lines.removeLast() }
    return lines.joined(separator: "\n") + "\n"
}

/// The one line printed after a usage error: `Try 'NAME --help' for more information.`
/// (without a trailing newline).
package func renderUsageHint(_ spec: ToolSpec) -> String {
    "Try '\(spec.name) --help' for more information."
}

/// The aligned option list: the forms of each flag on the left, its help on the right.
private func optionLines(_ flags: [FlagSpec]) -> [String] {
    let forms = flags.map { "  " + optionForms($0) }
    let fitting = forms.map(\.count).filter { $0 + 2 <= helpMaxOptionColumn }
    let column = (fitting.max() ?? 0) + 2
    var lines: [String] = []
    for (flag, form) in zip(flags, forms) {
        let helpLines = TextBlock.wrap(flag.help, width: helpLineWidth - column)
        var first = form
        if form.count + 2 > column {
            lines.append(form)
            first = ""
        }
        for (number, help) in helpLines.enumerated() {
            let left = number == 0 ? first : ""
            lines.append(left + String(repeating: " ", count: column - left.count) + help)
        }
        if helpLines.isEmpty && !first.isEmpty { lines.append(first) }
    }
    return lines
}

/// `-m, --max-count=NUM`, `    --color[=WHEN]` or `-q, --quiet`: the short form (or room
/// for one, so long names line up) and the long form with its value.
private func optionForms(_ flag: FlagSpec) -> String {
    let short = flag.short.map { "-\($0), " } ?? "    "
    switch flag.value {
    case .none: return short + "--\(flag.long)"
    case .required(let name): return short + "--\(flag.long)=\(name)"
    case .optional(let name, _): return short + "--\(flag.long)[=\(name)]"
    }
}

/// A piece of the plain text in `ToolSpec.description` and `ManSection.body`, shared by
/// the help and man renderers so they read that text the same way.
enum TextBlock: Equatable {
    /// Prose to fill: the lines of one paragraph joined by single spaces.
    case paragraph(String)
    /// Lines shown verbatim, without the two spaces that marked them.
    case example([String])

    /// Splits plain text into blocks: paragraphs end at blank lines, and consecutive lines
    /// starting with two spaces form an example.
    static func split(_ text: String) -> [TextBlock] {
        var blocks: [TextBlock] = []
        var prose: [String] = []
        var example: [String] = []
        func flush() {
            if !prose.isEmpty { blocks.append(.paragraph(prose.joined(separator: " "))) }
            if !example.isEmpty { blocks.append(.example(example)) }
            prose = []
            example = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                flush()
            } else if line.hasPrefix("  ") {
                if !prose.isEmpty { flush() }
                example.append(String(line.dropFirst(2)))
            } else {
                if !example.isEmpty { flush() }
                prose.append(line.trimmingWhitespace())
            }
        }
        flush()
        return blocks
    }

    /// Greedy word wrap of `text` into lines of at most `width` characters; a word longer
    /// than `width` gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: \.isWhitespace) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension Substring {
    /// The text without leading and trailing whitespace.
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
