/// The search loop's direct checks: whether a query word starts a word at a candidate
/// the finder hit, from the bytes around it alone, so that most hits are rejected
/// without matching their line.

extension LineMatcher {
    /// Whether the query word `word` starts a word with its byte `anchorOffset` at `hit`,
    /// a candidate the finder found (an ASCII byte, or the lead byte of a character that
    /// may fold to it), judged from the bytes around it: the one check the search loop
    /// and `CandidateFinder.nextHit` make.
    @inline(__always)
    package func startsWord(
        _ word: UnsafeBufferPointer<UInt8>, hit: UnsafePointer<UInt8>, anchorOffset: Int,
        blockStart: UnsafePointer<UInt8>, blockEnd: UnsafePointer<UInt8>, terminator: UInt8
    ) -> DirectVerdict {
        if hit.pointee < 0x80 {
            return startsWord(
                word, at: hit - anchorOffset, anchorOffset: anchorOffset, blockStart: blockStart, blockEnd: blockEnd,
                terminator: terminator)
        }
        return startsWord(
            word, aroundCharacterAt: hit, anchorOffset: anchorOffset, blockStart: blockStart, blockEnd: blockEnd,
            terminator: terminator)
    }

    /// Whether the ASCII query word `word` starts a word at `position` of a block of
    /// lines, judged from the bytes around it alone: `.yes`, `.no`, or `.unknown` when a
    /// byte it depends on is not ASCII (then the whole line must be matched).
    ///
    /// `blockStart` is the start of the block (a line start); `terminator` ends lines.
    /// `anchorOffset` is where, in `word`, the byte the finder hit sits (`position +
    /// anchorOffset` is the hit): around non-ASCII bytes the check works outward from it.
    @inline(__always)
    package func startsWord(
        _ word: UnsafeBufferPointer<UInt8>, at position: UnsafePointer<UInt8>, anchorOffset: Int,
        blockStart: UnsafePointer<UInt8>, blockEnd: UnsafePointer<UInt8>, terminator: UInt8
    ) -> DirectVerdict {
        let length = word.count
        guard position >= blockStart && blockEnd - position >= length && UTF8Decoding.isASCII(position, count: length) else {
            return startsWordNearNonASCII(
                word, hit: position + anchorOffset, anchorOffset: anchorOffset, blockStart: blockStart, blockEnd: blockEnd,
                terminator: terminator)
        }
        let lower = lowercase
        for i in 0..<length where lower[Int(position[i])] != word[i] { return .no }
        return isWordStart(position, blockStart: blockStart, blockEnd: blockEnd, terminator: terminator)
    }

    /// Whether the ASCII query word `word` starts a word of a block of lines with its
    /// byte `anchorOffset` in the folded form of the non-ASCII character at `hit` (a lead
    /// byte the finder hit: `ž` for the `z` of `zebra`), judged as `startsWord` judges.
    /// A form may hold the byte more than once (`ß` is `ss`): each place is tried.
    package func startsWord(
        _ word: UnsafeBufferPointer<UInt8>, aroundCharacterAt hit: UnsafePointer<UInt8>, anchorOffset: Int,
        blockStart: UnsafePointer<UInt8>, blockEnd: UnsafePointer<UInt8>, terminator: UInt8
    ) -> DirectVerdict {
        let (value, length) = UTF8Decoding.decode(hit, end: blockEnd)
        if value == UTF8Decoding.invalid { return .no }
        let form = caseSensitive ? CaseKeptFolding.form(of: value) : CaseIgnoredFolding.form(of: value)
        var verdict = DirectVerdict.no
        var raw = form.rawValue
        for k in 0..<form.count {
            if UInt8(truncatingIfNeeded: raw) == word[anchorOffset] {
                let around = startsWordAround(
                    word, character: hit, length: length, form: form, at: k, anchorOffset: anchorOffset, blockStart: blockStart,
                    blockEnd: blockEnd, terminator: terminator)
                if around == .yes { return .yes }
                if around == .unknown { verdict = .unknown }
            }
            raw >>= 8
        }
        return verdict
    }

    /// `startsWord` where the word's span leaves the block or holds a non-ASCII byte.
    @inline(never)
    private func startsWordNearNonASCII(
        _ word: UnsafeBufferPointer<UInt8>, hit: UnsafePointer<UInt8>, anchorOffset: Int, blockStart: UnsafePointer<UInt8>,
        blockEnd: UnsafePointer<UInt8>, terminator: UInt8
    ) -> DirectVerdict {
        // The finder hits both cases of a letter; with case kept, only one is the word's.
        let folded = lowercase[Int(hit.pointee)]
        if folded != word[anchorOffset] { return .no }
        let form = FoldedScalar(rawValue: 1 &<< 56 | UInt64(folded))
        return startsWordAround(
            word, character: hit, length: 1, form: form, at: 0, anchorOffset: anchorOffset, blockStart: blockStart,
            blockEnd: blockEnd, terminator: terminator)
    }

    /// Whether `word` starts a word with its byte `anchorOffset` at byte `k` of `form`, the
    /// folded form of the character at `[character, character + length)`.
    ///
    /// Forward, the text is folded character by character as the matcher folds it and
    /// compared with the rest of the word: a mismatch, an invalid UTF-8 byte (it folds to
    /// 0xFF, which no query word holds) or the end of the line rules this place out.
    /// Backward, each character is folded too, and its whole form must end the word's
    /// bytes before it (a word starts only where a character does); a valid non-ASCII
    /// character starting the word, or just before it, leaves the answer to the whole
    /// line's match (its class decides). In binary
    /// data (compressed files, images) half the bytes are not ASCII, and the plain check
    /// sent nearly every hit to the whole line's match: a search of /usr/share's .gz
    /// files for `zebra` took 0.82 s of CPU, now 0.06 s; Czech or Polish text sent every
    /// `ž` and `ż` to it.
    private func startsWordAround(
        _ word: UnsafeBufferPointer<UInt8>, character: UnsafePointer<UInt8>, length: Int, form: FoldedScalar, at k: Int,
        anchorOffset: Int, blockStart: UnsafePointer<UInt8>, blockEnd: UnsafePointer<UInt8>, terminator: UInt8
    ) -> DirectVerdict {
        // The word can start no later than the character (word starts are characters').
        if k > anchorOffset { return .no }
        let lower = lowercase
        // Forward: the rest of the character's form, then the text after it.
        var i = anchorOffset + 1
        var raw = form.rawValue >> UInt64(8 * (k + 1))
        for _ in (k + 1)..<max(k + 1, form.count) where i < word.count {
            if UInt8(truncatingIfNeeded: raw) != word[i] { return .no }
            raw >>= 8
            i += 1
        }
        var p = character + length
        while i < word.count {
            if p >= blockEnd { return .no }
            let b = p.pointee
            if b < 0x80 {
                if lower[Int(b)] != word[i] { return .no }
                p += 1
                i += 1
                continue
            }
            let (value, size) = UTF8Decoding.decode(p, end: blockEnd)
            if value == UTF8Decoding.invalid { return .no }
            let next = caseSensitive ? CaseKeptFolding.form(of: value) : CaseIgnoredFolding.form(of: value)
            var bytes = next.rawValue
            for _ in 0..<next.count where i < word.count {
                if UInt8(truncatingIfNeeded: bytes) != word[i] { return .no }
                bytes >>= 8
                i += 1
            }
            p += size
        }
        // Backward: the character's form before `k`, then the text before it, folded.
        var j = anchorOffset - 1
        var m = k - 1
        while m >= 0 {
            if UInt8(truncatingIfNeeded: form.rawValue >> UInt64(8 * m)) != word[j] { return .no }
            m -= 1
            j -= 1
        }
        // The word starts at this character: its class is needed, unless it is ASCII.
        if j < 0 && length > 1 { return .unknown }
        var q = character - 1
        while j >= 0 {
            if q < blockStart { return .no }
            let b = q.pointee
            if b >= 0x80 {
                // A character before: its folded form must end the word's bytes before it,
                // all of it (a word starts only where a character does).
                guard let (start, value) = Self.character(endingAt: q, lineStart: blockStart) else { return .no }
                let before = caseSensitive ? CaseKeptFolding.form(of: value) : CaseIgnoredFolding.form(of: value)
                var m = before.count - 1
                while m >= 0 {
                    if j < 0 || UInt8(truncatingIfNeeded: before.rawValue >> UInt64(8 * m)) != word[j] { return .no }
                    m -= 1
                    j -= 1
                }
                // The word starts at this character: its class decides.
                if j < 0 { return .unknown }
                q = start - 1
                continue
            }
            if lower[Int(b)] != word[j] { return .no }
            q -= 1
            j -= 1
        }
        let position = q + 1
        if position > blockStart && position[-1] >= 0x80 && !Self.endsValidCharacter(position - 1, lineStart: blockStart) {
            // An invalid byte before: a separator (a word character with --words=space).
            let previous = mode.splittingClass(.separator, isWhitespace: false)
            let current = asciiClass(position[0])
            return WordMode.startsWord(previous: previous, current: current, next: .separator, camelCase: camelCase) ? .yes : .no
        }
        return isWordStart(position, blockStart: blockStart, blockEnd: blockEnd, terminator: terminator)
    }

    /// Whether the byte at `last` (≥ 0x80) is the last byte of a valid UTF-8 character
    /// that starts at or after `lineStart`, as a decoder reading forward finds it (a lead
    /// byte is never a continuation byte, so the forward reading always starts there).
    @inline(__always)
    static func endsValidCharacter(_ last: UnsafePointer<UInt8>, lineStart: UnsafePointer<UInt8>) -> Bool {
        character(endingAt: last, lineStart: lineStart) != nil
    }

    /// The start and value of the valid UTF-8 character whose last byte is at `last`
    /// (≥ 0x80), starting at or after `lineStart`; nil when that byte ends none.
    @inline(__always)
    static func character(
        endingAt last: UnsafePointer<UInt8>, lineStart: UnsafePointer<UInt8>
    ) -> (start: UnsafePointer<UInt8>, value: UInt32)? {
        var start = last
        while start > lineStart && start.pointee & 0xC0 == 0x80 && last - start < 3 { start -= 1 }
        guard start.pointee >= 0xC0 else { return nil }
        let (value, length) = UTF8Decoding.decode(start, end: last + 1)
        guard value != UTF8Decoding.invalid && length == last - start + 1 else { return nil }
        return (start, value)
    }

    /// Whether a word starts at `position` (an ASCII byte), judged from its neighbours.
    @inline(__always)
    func isWordStart(
        _ position: UnsafePointer<UInt8>, blockStart: UnsafePointer<UInt8>, blockEnd: UnsafePointer<UInt8>,
        terminator: UInt8
    ) -> DirectVerdict {
        let current = asciiClass(position[0])
        if current == .separator { return .no }
        var previous = ScalarClass.separator
        if position > blockStart && position[-1] != terminator {
            // A non-ASCII byte before may be a combining mark or a letter.
            if position[-1] >= 0x80 { return .unknown }
            previous = asciiClass(position[-1])
        }
        // Only an uppercase letter after another needs the character after it.
        var next = ScalarClass.separator
        if camelCase && current == .uppercase && previous == .uppercase {
            let after = position + 1
            if after < blockEnd && after[0] != terminator {
                if after[0] >= 0x80 { return .unknown }
                next = asciiClass(after[0])
            }
        }
        return WordMode.startsWord(previous: previous, current: current, next: next, camelCase: camelCase) ? .yes : .no
    }
}

/// The answer of `LineMatcher.startsWord`.
package enum DirectVerdict {
    case yes, no, unknown
}
