#include "bench/bench_names.h"

namespace gpuport {

std::string_view api_name(ApiKind api) {
  switch (api) {
    case ApiKind::completions:
      return "completions";
    case ApiKind::chat:
      return "chat";
    case ApiKind::generic:
      return "generic";
  }
  return "completions";
}

std::string_view arrival_name(Arrival arrival) {
  switch (arrival) {
    case Arrival::poisson:
      return "poisson";
    case Arrival::gamma:
      return "gamma";
    case Arrival::constant:
      return "constant";
  }
  return "poisson";
}

}  // namespace gpuport
