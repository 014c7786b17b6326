/// The shape of every module's one error type: a kind for code to switch on, and a message in
/// words for people, naming the input at fault and the problem. Each module declares its own
/// kinds and names the type (`public typealias SyncError = KindedError<SyncErrorKind>`), so a
/// caller still catches one module's errors by their name.
public struct KindedError<K: Sendable & Hashable>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The module's kinds, as `SyncError.Kind`.
    public typealias Kind = K

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
