import Foundation

/// How many columns text may take: help wraps to it, the progress bar fills it.
enum TerminalWidth {
    static let fallback = 80
    /// Narrower than this, wrapped help is harder to read than lines a terminal folds.
    static let minimum = 40

    /// The columns of the terminal behind `descriptor`, or nil when it is not a terminal (a
    /// pipe, a file) or does not say.
    static func columns(of descriptor: Int32) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        // returns -1 with errno set when the descriptor has no window size
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// `COLUMNS` when set (the user's word, as `ls` and GNU tools take it), else the terminal's
    /// columns, else 80; never below `minimum`.
    static func resolve(environment: [String: String], terminalColumns: Int?) -> Int {
        let columns = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            ?? terminalColumns ?? fallback
        return max(minimum, columns)
    }
}
