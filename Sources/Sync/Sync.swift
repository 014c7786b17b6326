/// Sync: change sets, three-way reconcile, conflict policies, apply.
/// Filled by the sync issue.
