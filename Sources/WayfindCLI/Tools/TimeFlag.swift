import WayfindCore

extension Flag where Value == Int64? {
    /// `--at TIME`, as every tool that takes a time reads it (`TimeText.timestamp`), with
    /// the tool's own words for what the time means.
    static func at(help: String, manHelp: String) -> Flag {
        Flag(
            "at", value: "TIME", help: help, manHelp: manHelp,
            expected: "Unix seconds or ISO 8601 from 1970 to 9999, such as 2024-05-01T08:30:00Z", parse: TimeText.timestamp)
    }
}
