// Closed and open loop on the event loop of an HttpClient: who sends when, and what counts.
#include "bench/load_runner.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <unordered_map>

#include "bench/load_plan.h"
#include "bench/metrics.h"
#include "bench/response_interpreter.h"
#include "bench/secrets.h"

namespace gpuport {

namespace {

constexpr std::int64_t k_progress_interval_ns = 500'000'000;

class LoadRun;

// One request in flight: the exchange's observer, filling its record.
class InFlight final : public ExchangeObserver {
 public:
  InFlight(LoadRun& run, const LoadOptions& options, RequestRecord record,
           std::int64_t prompt_tokens_estimate, std::int64_t origin_ns)
      : run_(run),
        secrets_(options.secrets),
        interpreter_(options.api, options.stream),
        record_(std::move(record)),
        prompt_tokens_estimate_(prompt_tokens_estimate),
        origin_ns_(origin_ns) {}

  void on_sent(std::int64_t t_ns) override { record_.sent_ns = t_ns - origin_ns_; }
  void on_head(const HttpResponseHead& head, std::int64_t t_ns) override {
    interpreter_.on_head(head, t_ns - origin_ns_, record_);
  }
  void on_body(std::string_view bytes, std::int64_t t_ns) override {
    interpreter_.on_body(bytes, t_ns - origin_ns_, record_);
  }
  void on_done(RequestError error, std::string_view detail, std::int64_t t_ns) override;

  const RequestRecord& record() const { return record_; }

 private:
  LoadRun& run_;
  const std::vector<std::string>& secrets_;
  ResponseInterpreter interpreter_;
  RequestRecord record_;
  std::int64_t prompt_tokens_estimate_;
  std::int64_t origin_ns_;
};

class LoadRun {
 public:
  LoadRun(HttpClient& client, const LoadOptions& options, const Slo& slo,
          const LoadCallbacks& callbacks)
      : client_(client), options_(options), callbacks_(callbacks), recorder_(slo) {}
  ~LoadRun() { *alive_ = false; }

  LoadOutcome execute();
  void finished(InFlight* request);

 private:
  bool closed_loop() const { return options_.mode == LoadMode::concurrency; }
  std::int64_t now() const { return client_.now_ns() - origin_ns_; }
  bool is_warmup(std::uint64_t index, std::int64_t intended) const {
    return index < options_.warmup_requests || intended < options_.warmup_ns;
  }
  // Closed loop: whether the bounds allow one more request intended at `intended`.
  bool may_send(std::int64_t intended);
  void send(std::int64_t intended);
  void after(std::int64_t t, std::function<void()> callback);
  void draw_plan();
  void arm_arrivals();
  void on_arrivals();
  void interrupt();
  void maybe_end();
  void report_progress();

  HttpClient& client_;
  const LoadOptions& options_;
  const LoadCallbacks& callbacks_;
  MetricsRecorder recorder_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::int64_t origin_ns_ = 0;
  std::unordered_map<InFlight*, std::unique_ptr<InFlight>> in_flight_;
  std::vector<std::int64_t> plan_;  // open loop: intended offsets, already cut to the bounds
  std::size_t plan_next_ = 0;
  std::deque<std::int64_t> held_;  // open loop: arrivals the concurrency cap holds back
  std::uint64_t sent_ = 0;
  std::uint64_t measured_sent_ = 0;
  std::uint64_t completed_ = 0;
  std::uint64_t failed_ = 0;
  std::uint64_t pending_retries_ = 0;
  std::uint64_t measured_in_flight_ = 0;
  std::uint64_t max_measured_in_flight_ = 0;
  std::int64_t measure_start_ = -1;
  std::int64_t last_done_ = -1;
  bool stopping_ = false;
  bool interrupted_ = false;
  bool ended_ = false;
};

void InFlight::on_done(RequestError error, std::string_view detail, std::int64_t t_ns) {
  interpreter_.on_done(error, detail, t_ns - origin_ns_, prompt_tokens_estimate_, record_);
  if (!secrets_.empty() && !record_.error_detail.empty()) {
    record_.error_detail = redact_secrets(std::move(record_.error_detail), secrets_);
  }
  run_.finished(this);  // destroys this object
}

void LoadRun::after(std::int64_t t, std::function<void()> callback) {
  client_.call_at(origin_ns_ + t, [alive = alive_, callback = std::move(callback)] {
    if (*alive) {
      callback();
    }
  });
}

bool LoadRun::may_send(std::int64_t intended) {
  if (stopping_) {
    return false;
  }
  if (is_warmup(sent_, intended)) {
    return true;
  }
  if (measure_start_ < 0) {
    measure_start_ = intended;
  }
  if ((options_.requests > 0 && measured_sent_ >= options_.requests) ||
      (options_.duration_ns > 0 && intended >= measure_start_ + options_.duration_ns)) {
    stopping_ = true;
    return false;
  }
  return true;
}

void LoadRun::send(std::int64_t intended) {
  RequestRecord record;
  record.index = sent_;
  record.intended_ns = intended;
  record.sent_ns = now();
  record.warmup = is_warmup(sent_, intended);
  if (!record.warmup) {
    if (measure_start_ < 0) {
      measure_start_ = intended;
    }
    ++measured_sent_;
    max_measured_in_flight_ = std::max(max_measured_in_flight_, ++measured_in_flight_);
  }
  PreparedRequest prepared = callbacks_.prepare(sent_);
  ++sent_;
  auto request = std::make_unique<InFlight>(*this, options_, std::move(record),
                                            prepared.prompt_tokens, origin_ns_);
  InFlight* key = request.get();
  in_flight_.emplace(key, std::move(request));
  client_.post(prepared.body, options_.timeout_ns, key);
}

void LoadRun::finished(InFlight* request) {
  const auto found = in_flight_.find(request);
  if (found == in_flight_.end()) {
    return;
  }
  std::unique_ptr<InFlight> owned = std::move(found->second);
  in_flight_.erase(found);
  const RequestRecord& record = owned->record();
  recorder_.record(record);
  if (!record.warmup) {
    --measured_in_flight_;
    last_done_ = std::max(last_done_, record.done_ns);
    record.error == RequestError::none ? ++completed_ : ++failed_;
  }
  if (callbacks_.on_record) {
    callbacks_.on_record(record);
  }
  if (closed_loop()) {
    if (record.error == RequestError::connect && !stopping_) {
      ++pending_retries_;
      const std::int64_t retry_at = now() + options_.connect_retry_ns;
      after(retry_at, [this, retry_at] {
        --pending_retries_;
        if (may_send(retry_at)) {
          send(retry_at);
        }
        maybe_end();
      });
    } else if (may_send(now())) {
      send(now());
    }
  } else if (!held_.empty() && !stopping_) {
    const std::int64_t intended = held_.front();
    held_.pop_front();
    send(intended);
  }
  maybe_end();
}

void LoadRun::draw_plan() {
  const std::uint64_t warmup = options_.warmup_requests;
  std::vector<std::int64_t> offsets;
  if (options_.requests > 0) {
    offsets = arrival_offsets_ns(options_.arrival, options_.rate, options_.burstiness,
                                 options_.seed, warmup + options_.requests, 0);
  } else {
    // Room for the counted warm-up arrivals as well (about warmup / rate, with margin).
    const double warmup_room_s =
        warmup > 0 ? (2.0 * static_cast<double>(warmup) + 100.0) / options_.rate : 0.0;
    const auto horizon =
        options_.warmup_ns + options_.duration_ns + static_cast<std::int64_t>(warmup_room_s * 1e9);
    offsets = arrival_offsets_ns(options_.arrival, options_.rate, options_.burstiness,
                                 options_.seed, 0, horizon);
  }
  std::int64_t start = -1;
  std::uint64_t measured = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const std::int64_t offset = offsets[i];
    if (is_warmup(i, offset)) {
      plan_.push_back(offset);
      continue;
    }
    if (start < 0) {
      start = offset;
    }
    if ((options_.duration_ns > 0 && offset >= start + options_.duration_ns) ||
        (options_.requests > 0 && measured >= options_.requests)) {
      break;
    }
    ++measured;
    plan_.push_back(offset);
  }
}

void LoadRun::arm_arrivals() {
  if (plan_next_ >= plan_.size() || stopping_) {
    maybe_end();
    return;
  }
  after(plan_[plan_next_], [this] { on_arrivals(); });
}

void LoadRun::on_arrivals() {
  if (stopping_) {
    return;
  }
  const std::int64_t t = now();
  const auto cap = static_cast<std::size_t>(std::max<std::int64_t>(options_.concurrency, 0));
  while (plan_next_ < plan_.size() && plan_[plan_next_] <= t) {
    const std::int64_t intended = plan_[plan_next_++];
    if (cap > 0 && (in_flight_.size() >= cap || !held_.empty())) {
      held_.push_back(intended);
    } else {
      send(intended);
    }
  }
  arm_arrivals();
}

void LoadRun::interrupt() {
  interrupted_ = true;
  stopping_ = true;
  held_.clear();
  client_.cancel_all();
  maybe_end();
}

void LoadRun::maybe_end() {
  if (ended_ || !in_flight_.empty() || pending_retries_ > 0) {
    return;
  }
  const bool open_loop_done = !closed_loop() && plan_next_ >= plan_.size() && held_.empty();
  if (stopping_ || open_loop_done) {
    ended_ = true;
    client_.stop();
  }
}

void LoadRun::report_progress() {
  if (ended_ || !callbacks_.on_progress) {
    return;
  }
  ProgressSnapshot snapshot;
  snapshot.elapsed_s = static_cast<double>(now()) / 1e9;
  if (options_.duration_ns > 0) {
    snapshot.planned_s = static_cast<double>(options_.warmup_ns + options_.duration_ns) / 1e9;
  }
  if (options_.requests > 0) {
    snapshot.planned_requests = options_.requests + options_.warmup_requests;
  }
  snapshot.sent = sent_;
  snapshot.completed = completed_;
  snapshot.failed = failed_;
  snapshot.in_flight = in_flight_.size();
  snapshot.warming_up = measure_start_ < 0;
  snapshot.stopping = stopping_ || (!closed_loop() && plan_next_ >= plan_.size());
  callbacks_.on_progress(snapshot);
  after(now() + k_progress_interval_ns, [this] { report_progress(); });
}

LoadOutcome LoadRun::execute() {
  origin_ns_ = client_.now_ns();
  client_.on_interrupt([this] { interrupt(); });
  if (closed_loop()) {
    const auto slots = std::max<std::int64_t>(options_.concurrency, 1);
    for (std::int64_t slot = 0; slot < slots && may_send(0); ++slot) {
      send(0);
    }
  } else {
    draw_plan();
  }
  client_.call_at(origin_ns_, [this, alive = alive_] {
    if (!*alive) {
      return;
    }
    if (!closed_loop()) {
      arm_arrivals();
    }
    report_progress();
    maybe_end();
  });
  client_.run();
  client_.on_interrupt({});

  LoadOutcome outcome;
  outcome.interrupted = interrupted_;
  const double duration_s = measure_start_ >= 0 && last_done_ > measure_start_
                                ? static_cast<double>(last_done_ - measure_start_) / 1e9
                                : 0.0;
  outcome.measurement = recorder_.finish(duration_s, max_measured_in_flight_);
  return outcome;
}

}  // namespace

LoadOutcome run_load(HttpClient& client, const LoadOptions& options, const Slo& slo,
                     const LoadCallbacks& callbacks) {
  LoadRun run(client, options, slo, callbacks);
  return run.execute();
}

}  // namespace gpuport
