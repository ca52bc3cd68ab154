/// "Did you mean …?": the known word closest to a misspelt one.
///
/// Closeness is the optimal string alignment distance: insertions, deletions,
/// substitutions and swaps of two neighbouring characters each cost one, so `--rnak`
/// is one step from `--rank`. A suggestion is made only when it is close enough to be a
/// typo: within a third of the word's length (at least one edit), and closer than any
/// other candidate.
package enum Spelling {
    /// The candidate closest to `word`, or nil when none is close or two tie.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        let limit = max(1, typed.count / 3)
        var best: (name: String, distance: Int)? = nil
        var tied = false
        for candidate in candidates {
            let d = distance(typed, Array(candidate.lowercased()))
            guard d <= limit else { continue }
            if let current = best, d >= current.distance {
                if d == current.distance && candidate != current.name { tied = true }
                continue
            }
            best = (candidate, d)
            tied = false
        }
        return tied ? nil : best?.name
    }

    /// The optimal string alignment distance between `a` and `b`.
    package static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { d = min(d, table[i - 2][j - 2] + 1) }
                table[i][j] = d
            }
        }
        return table[a.count][b.count]
    }

    /// `" (did you mean 'x'?)"` for the closest candidate, or an empty string.
    package static func hint(for word: String, in candidates: [String], quoting: (String) -> String = { $0 }) -> String {
        closest(to: word, in: candidates).map { " (did you mean '\(quoting($0))'?)" } ?? ""
    }
}
