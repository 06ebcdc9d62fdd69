// The same calls, each made after its capture ends (the capture holds only
// the stream-ordered work): every capture makes a graph, which replays, and
// the calls succeed. A copy to the host is stream-ordered on the capturing
// stream, then waited for.
#include "../graph_harness.h"

it::Outcome probe(float V, at::cuda::CUDAStream Cap, at::Tensor Y) {
  it::sync(); // Y is ready
  cudaStream_t S = Cap.stream();
  size_t Bytes = Y.numel() * sizeof(float);
  cudaEvent_t Ev = nullptr;
  cudaEventCreateWithFlags(&Ev, cudaEventDisableTiming);
  void *P = nullptr;
  void *Q = nullptr;
  float Host = 0;
  std::string What;
  int Failed = 0;

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::endAndReplay(What, Failed, S);
  it::note(What, Failed, "cudaDeviceSynchronize", cudaDeviceSynchronize());

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::endAndReplay(What, Failed, S);
  it::note(What, Failed, "cudaStreamSynchronize", cudaStreamSynchronize(S));
  cudaError_t Idle = cudaStreamQuery(S);
  it::note(What, Failed, "cudaStreamQuery", Idle);

  it::note(What, Failed, "cudaMalloc", cudaMalloc(&P, 1 << 20));
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(P, 0, 1 << 20, S);
  it::endAndReplay(What, Failed, S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::endAndReplay(What, Failed, S);
  cudaEventRecord(Ev, S);
  it::note(What, Failed, "cudaEventSynchronize", cudaEventSynchronize(Ev));
  it::note(What, Failed, "cudaEventQuery", cudaEventQuery(Ev));

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::endAndReplay(What, Failed, S);
  it::note(What, Failed, "cudaMemcpyAsync",
       cudaMemcpyAsync(&Host, Y.data_ptr<float>(), sizeof(float),
                       cudaMemcpyDeviceToHost, S));
  it::note(What, Failed, "cudaStreamSynchronize", cudaStreamSynchronize(S));

  it::note(What, Failed, "cudaStreamSynchronize (legacy)", cudaStreamSynchronize(0));

  cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, Failed, "cudaMalloc (relaxed)", cudaMalloc(&Q, 1 << 20));
  it::endAndReplay(What, Failed, S);

  cudaStreamSynchronize(S);
  cudaFree(P);
  cudaFree(Q);
  cudaEventDestroy(Ev);
  bool Bad = Failed != 0 || it::differs(Host, 0.0);
  return {Bad, What, true};
}

int main(int argc, char **argv) {
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  return it::runGraph(
      "graph_restricted_calls", "fixed", argc, argv,
      [&](float V, at::cuda::CUDAStream Cap) { return probe(V, Cap, Y); });
}
