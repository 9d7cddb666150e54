#include "bench/request_record.h"

namespace gpuport {

std::string_view request_error_name(RequestError error) {
  switch (error) {
    case RequestError::none:
      return "none";
    case RequestError::connect:
      return "connect";
    case RequestError::timeout:
      return "timeout";
    case RequestError::http_status:
      return "http_status";
    case RequestError::protocol:
      return "protocol";
    case RequestError::cancelled:
      return "cancelled";
  }
  return "unknown";
}

}  // namespace gpuport
