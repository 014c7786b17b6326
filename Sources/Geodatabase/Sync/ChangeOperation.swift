/// The kind of a recorded change, as the change tables spell it.
public enum ChangeOperation: String, Sendable, Hashable, CaseIterable {
    case insert, update, delete
}
