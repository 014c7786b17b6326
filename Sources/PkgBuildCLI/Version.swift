/// The version of pkgbuild, printed by `pkgbuild --version` and written into packages'
/// manifests. Defined here once.
public enum PkgBuildVersion {
    public static let current = "0.1.0"
}
