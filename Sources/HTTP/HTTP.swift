/// HTTP: libcurl easy/multi for tile and feature sources (concurrency, retries, timeouts).
/// Filled by the basemap tiles issue.
import CCurl
