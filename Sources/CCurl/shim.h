#include <curl/curl.h>

// curl_easy_setopt and friends are variadic: Swift needs typed wrappers.
static inline CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
typedef size_t (*ccurl_write_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);
static inline CURLcode ccurl_easy_setopt_write(CURL *h, CURLoption o, ccurl_write_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_easy_getinfo_offt(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLcode ccurl_easy_setopt_offt(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
// CURLMsg.data is a union; Swift reads the CURLcode member through this helper.
static inline CURLcode ccurl_msg_result(const CURLMsg *m) { return m->data.result; }
