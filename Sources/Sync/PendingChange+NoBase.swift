/// A change whose row is listed in ``NoBaseRows``: merged as if both sides changed everything.
import Geodatabase
import PackageFormat

extension PendingChange {
    /// The change as a conflict with no base: every value column counts as changed on both
    /// sides, so the reconcile records each difference instead of merging it.
    func withoutBase(_ table: SyncTable) -> PendingChange {
        var change = self
        change.base = nil
        if change.operation == .insert { change.operation = .update }
        change.changedColumns = change.current == nil ? [] : table.valueColumns
        return change
    }
}
