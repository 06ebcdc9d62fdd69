// Twin of a bug found in the wild: DeepEP Buffer::get_dispatch_layout
// (deepseek-ai/DeepEP csrc/deep_ep.cpp before b306af0, csrc/legacy/buffer.hpp
// at dd758ca). With torch.use_deterministic_algorithms(True) and
// fill_uninitialized_memory, every torch::empty enqueues a fill (NaN, or the
// type's maximum for integers, true for bool) on the current stream, the
// compute stream. The outputs are allocated after the one
// stream_wait(comm_stream, compute_stream), so the comm stream does not wait
// for their fills: the layout kernel on comm_stream writes them while the fills
// are still pending, and a fill that lands later overwrites the layout. This is
// the race of DeepEP issue #589 in a function its fix (PR #600) does not touch.
// The sleep after the wait keeps the compute stream busy, so the fills land
// after the kernel every time (PR #600 measured 18% per iteration on 8xH20
// without it). The analyzer does not credit the wait in stream_wait(), whose
// assertion throws first (docs/integration.md, "Twins of bugs found in the
// wild"): it also reports topk_idx at the launch, and both twins fail
// check_analyzer.py.
#include "../harness.h"

#include <ATen/Context.h>
#include <torch/types.h>
#include <torch/version.h>

#include <memory>
#include <optional>
#include <vector>

using topk_idx_t = int64_t;

// DeepEP csrc/utils/event.hpp, with at::cuda::CUDAEvent for torch::Event.
struct EventHandle {
  std::shared_ptr<at::cuda::CUDAEvent> event;
  explicit EventHandle(const at::cuda::CUDAStream &stream) {
    event = std::make_shared<at::cuda::CUDAEvent>();
    event->record(stream);
  }
};

static void stream_wait(const at::cuda::CUDAStream &s_0, const at::cuda::CUDAStream &s_1) {
  TORCH_CHECK(s_0.id() != s_1.id()); // EP_HOST_ASSERT: if (not(cond)) throw ...
  at::cuda::CUDAEvent event;
  event.record(s_1);
  event.block(s_0);
}

static void stream_wait(const at::cuda::CUDAStream &s, const EventHandle &event) {
  event.event->block(s);
}

// Stands in for layout::get_dispatch_layout (csrc/kernels/layout.cu): block
// b < num_experts counts the tokens routed to expert b; block num_experts + r
// marks the tokens routed to rank r and counts them.
__global__ void layoutKernel(const topk_idx_t *topk_idx, int *num_tokens_per_rank,
                             int *num_tokens_per_expert, bool *is_token_in_rank, int num_tokens,
                             int num_topk, int num_ranks, int num_experts) {
  __shared__ int counts[256];
  int Count = 0;
  int B = blockIdx.x;
  int experts_per_rank = num_experts / num_ranks;
  for (int i = threadIdx.x; i < num_tokens; i += blockDim.x) {
    bool Hit = false;
    for (int j = 0; j < num_topk; ++j) {
      int e = static_cast<int>(topk_idx[i * num_topk + j]);
      Hit |= B < num_experts ? e == B : e / experts_per_rank == B - num_experts;
    }
    if (B >= num_experts)
      is_token_in_rank[i * num_ranks + (B - num_experts)] = Hit;
    Count += Hit;
  }
  counts[threadIdx.x] = Count;
  __syncthreads();
  if (threadIdx.x == 0) {
    int Sum = 0;
    for (int t = 0; t < blockDim.x; ++t)
      Sum += counts[t];
    if (B < num_experts)
      num_tokens_per_expert[B] = Sum;
    else
      num_tokens_per_rank[B - num_experts] = Sum;
  }
}

struct Buffer {
  int num_ranks = 8;
  at::cuda::CUDAStream comm_stream = at::cuda::getStreamFromPool(true);

  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, std::optional<EventHandle>>
  get_dispatch_layout(const torch::Tensor &topk_idx, int num_experts,
                      const std::optional<EventHandle> &previous_event, bool async,
                      bool allocate_on_comm_stream) {
    // Allocate all tensors on comm stream if set
    // NOTES: do not allocate tensors upfront!
    auto compute_stream = at::cuda::getCurrentCUDAStream();
    if (allocate_on_comm_stream) {
      TORCH_CHECK(previous_event.has_value() and async);
      at::cuda::setCurrentCUDAStream(comm_stream);
    }

    // Wait previous tasks to be finished
    if (previous_event.has_value()) {
      stream_wait(comm_stream, previous_event.value());
    } else {
      stream_wait(comm_stream, compute_stream);
    }
    at::cuda::sleep(it::spin()); // the twin's delay: the compute stream is busy

    auto num_tokens = static_cast<int>(topk_idx.size(0)),
         num_topk = static_cast<int>(topk_idx.size(1));
    auto num_tokens_per_rank =
        torch::empty({num_ranks}, torch::dtype(torch::kInt32).device(torch::kCUDA));
    auto num_tokens_per_expert =
        torch::empty({num_experts}, torch::dtype(torch::kInt32).device(torch::kCUDA));
    auto is_token_in_rank =
        torch::empty({num_tokens, num_ranks}, torch::dtype(torch::kBool).device(torch::kCUDA));

    layoutKernel<<<num_experts + num_ranks, 256, 0, comm_stream>>>(
        topk_idx.data_ptr<topk_idx_t>(),
        num_tokens_per_rank.data_ptr<int>(),   // EXPECT: streamsafe-unsynchronized-access
        num_tokens_per_expert.data_ptr<int>(), // EXPECT: streamsafe-unsynchronized-access
        is_token_in_rank.data_ptr<bool>(),     // EXPECT: streamsafe-unsynchronized-access
        num_tokens, num_topk, num_ranks, num_experts);
    C10_CUDA_KERNEL_LAUNCH_CHECK();

    // Wait streams
    std::optional<EventHandle> event;
    if (async) {
      event = EventHandle(comm_stream);
      for (auto &t : {topk_idx, num_tokens_per_rank, num_tokens_per_expert, is_token_in_rank}) {
        t.record_stream(comm_stream);
        if (allocate_on_comm_stream)
          t.record_stream(compute_stream);
      }
    } else {
      stream_wait(compute_stream, comm_stream);
    }

    // Switch back compute stream
    if (allocate_on_comm_stream)
      at::cuda::setCurrentCUDAStream(compute_stream);

    return {num_tokens_per_rank, num_tokens_per_expert, is_token_in_rank, event};
  }
};

constexpr int kTokens = 4096, kTopk = 8, kExperts = 256, kRanks = 8;

// Token i of call V goes to the 8 experts from (7 i + V) % 256 on (one or two
// of the 8 ranks of 32 experts). The layout is computed on the host too.
bool dispatchLayoutWrong(Buffer &Buf, float V) {
  auto Topk = at::empty({kTokens, kTopk}, at::kLong);
  auto *P = Topk.data_ptr<int64_t>();
  auto PerExpert = at::zeros({kExperts}, at::kInt), PerRank = at::zeros({kRanks}, at::kInt);
  auto InRank = at::zeros({kTokens, kRanks}, at::kBool);
  for (int i = 0; i < kTokens; ++i)
    for (int j = 0; j < kTopk; ++j) {
      int e = (7 * i + static_cast<int>(V) + j) % kExperts;
      P[i * kTopk + j] = e;
      PerExpert.data_ptr<int>()[e] += 1;
      InRank.data_ptr<bool>()[i * kRanks + e / 32] = true;
    }
  PerRank.copy_(InRank.sum(0));
  auto TopkGpu = Topk.to(at::kCUDA);
  auto Layout = Buf.get_dispatch_layout(TopkGpu, kExperts, std::nullopt, /*async=*/false,
                                        /*allocate_on_comm_stream=*/false);
  it::sync();
  return !(std::get<0>(Layout).cpu().equal(PerRank) && std::get<1>(Layout).cpu().equal(PerExpert) &&
           std::get<2>(Layout).cpu().equal(InRank));
}

int main(int argc, char **argv) {
  // torch.use_deterministic_algorithms(True);
  // torch.utils.deterministic.fill_uninitialized_memory = True
  at::globalContext().setDeterministicAlgorithms(true, /*warn_only=*/false);
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 1) // from 2.1
  at::globalContext().setDeterministicFillUninitializedMemory(true);
#endif
  Buffer Buf;
  return it::run(
      "deepep_layout_fill_race", "bug", argc, argv,
      [&](float V) { return dispatchLayoutWrong(Buf, V); }, "deterministic fill on");
}
