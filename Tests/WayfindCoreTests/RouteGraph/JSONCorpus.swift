/// Small JSON documents shared by the reader's tests: valid ones, invalid ones, and the
/// few where this reader and Foundation's `JSONSerialization` disagree on purpose.
enum JSONCorpus {
    /// Documents every RFC 8259 parser must accept.
    static let valid: [String] = [
        "{}", "[]", "0", "-0", "1", "-1", "123456789", "0.5", "-0.5", "1e5", "1E5", "1e+5", "1e-5",
        "1.25e-3", "9223372036854775807", "-9223372036854775808", "1e308", "\"\"", "\"a\"",
        "true", "false", "null", " \t\r\n{} \t\r\n", "[1,2,3]", "[ 1 , 2 ]", "{\"a\":1}",
        "{ \"a\" : [ true , false , null ] }", "{\"a\":{\"b\":{\"c\":[]}}}",
        "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"", "\"\\u0041\\u00e9\\u20AC\"", "\"\\uD83D\\uDE00\"",
        "\"é ü 日本 😀\"", "\"\u{7F}\"", "[\"\\u0000\"]", "{\"a\":1,\"a\":2}", "[[[[[[[[[[]]]]]]]]]]",
        "{\"edges\":[{\"origin\":\"A\",\"destination\":\"B\",\"weight\":1}],\"lastVisitedLocation\":null}",
        "[0, -0, 0.0, 0e0, 0E-0]", "\"\u{2028}\u{2029}\"", "{\"\":\"\"}", "[{}, [], \"\", 0]",
    ]

    /// Documents every RFC 8259 parser must reject.
    static let invalid: [String] = [
        "", " ", "{", "}", "[", "]", "[1,,2]", "[,1]", "{,}", "{\"a\"}", "{\"a\" 1}",
        "{a:1}", "{'a':1}", "['a']", "01", "-01", "00", "1.", ".5", "-", "+1", "1e", "1e+", "1.e5",
        "0x10", "NaN", "Infinity", "-Infinity", "tru", "truee", "nul", "True", "NULL", "\"abc",
        "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\t\"", "\"\n\"", "\"\u{1}\"", "[1] [2]", "{} x",
        "1 2", "[1}", "{\"a\":1]", "//x\n1", "/* */1", "[1,2", "{\"a\":", "\"\\", "\"\\u", "[\"a\" \"b\"]",
        "{\"a\":1 \"b\":2}", "[1\u{0B}]", "\u{A0}1", "[-]", "[1e1.5]", "-.5", "[.]",
    ]

    /// Invalid UTF-8 byte sequences inside a string, each in `["` … `"]`.
    static let invalidUTF8: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
        [0xF0, 0x80, 0x80, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE],
        [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3, 0x41],
    ]

    /// Where we and Foundation's `JSONSerialization` (swift-foundation, Linux) disagree on
    /// purpose: the document, whether we accept it, whether Foundation does, and why.
    static let disagreements: [(document: String, ours: Bool, foundation: Bool, why: String)] = [
        ("[1,]", false, true, "RFC 8259 has no trailing commas; Foundation tolerates them"),
        ("{\"a\":1,}", false, true, "RFC 8259 has no trailing commas; Foundation tolerates them"),
        ("[[1,],{\"a\":[],}]", false, true, "RFC 8259 has no trailing commas; Foundation tolerates them"),
        (
            "\u{FEFF}{}", false, true,
            "RFC 8259 §8.1: a parser MAY ignore a byte order mark; we refuse it so files stay plain"
        ),
        (
            "1e400", true, false,
            "RFC 8259 §6 leaves number range to implementations; we check syntax, callers check range"
        ),
        (
            "[-1e400]", true, false,
            "RFC 8259 §6 leaves number range to implementations; we check syntax, callers check range"
        ),
    ]
}
