#ifndef FXBATCH_CCURL_SHIM_H
#define FXBATCH_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic C functions, which Swift cannot call: one typed
// wrapper per kind of argument the transport passes.

static inline CURLcode fxcurl_set_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fxcurl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fxcurl_set_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fxcurl_set_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fxcurl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION, which share the callback's type.
static inline CURLcode fxcurl_set_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fxcurl_get_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode fxcurl_get_string(CURL *handle, CURLINFO info, char **value) {
  return curl_easy_getinfo(handle, info, value);
}

#endif
