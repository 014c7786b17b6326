/// Extract: plan/estimate/create an offline package for an area of interest.
/// Filled by the offline package issue.
