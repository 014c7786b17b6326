import Foundation

/// Where a command's text goes: the process's stdout or stderr, or a buffer in tests.
public protocol TextOutput: Sendable {
    func write(_ text: String)
}

/// Writes straight to a file descriptor (unbuffered, so stdout and stderr interleave in the
/// order they were written).
public struct FileHandleOutput: TextOutput {
    private let handle: FileHandle

    public init(_ handle: FileHandle) {
        self.handle = handle
    }

    public static var standardOutput: FileHandleOutput { FileHandleOutput(.standardOutput) }
    public static var standardError: FileHandleOutput { FileHandleOutput(.standardError) }

    public func write(_ text: String) {
        // A closed pipe (`pkgbuild ... | head`) must not end the process with an exception.
        try? handle.write(contentsOf: Data(text.utf8))
    }
}

/// Collects everything written, for tests and for commands that render before printing.
/// Safe to write from several threads.
public final class CapturedOutput: TextOutput, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""

    public init() {}

    public func write(_ text: String) {
        lock.withLock { buffer += text }
    }

    /// Everything written so far.
    public var text: String {
        lock.withLock { buffer }
    }
}
