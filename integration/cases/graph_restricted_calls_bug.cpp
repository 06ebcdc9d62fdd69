// Calls the CUDA runtime refuses while a stream captures in the global mode,
// each in a capture of its own (cudaStreamBeginCapture): host waits for the
// capturing stream, the device, the legacy stream or any other stream, a
// query of the capturing stream, cudaMalloc, a query or host wait of an
// event recorded in the capture, a capture begun on the legacy stream. Each
// returns an error. Not refused: a synchronous cudaMemcpy (it runs on the
// legacy stream, outside the graph) and cudaMalloc in the relaxed mode.
#include "../graph_harness.h"

it::Outcome probe(float, at::cuda::CUDAStream Cap, at::Tensor Y) {
  it::sync(); // Y is ready
  cudaStream_t S = Cap.stream();
  size_t Bytes = Y.numel() * sizeof(float);
  cudaEvent_t Ev = nullptr;
  cudaEventCreateWithFlags(&Ev, cudaEventDisableTiming);
  cudaGraph_t G = nullptr;
  void *P = nullptr;
  void *Q = nullptr;
  float Host = 0;
  std::string What;
  int Refused = 0;

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, Refused, "cudaDeviceSynchronize",
       cudaDeviceSynchronize()); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, Refused, "cudaStreamSynchronize",
       cudaStreamSynchronize(S)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, Refused, "cudaStreamQuery",
       cudaStreamQuery(S)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, Refused, "cudaMalloc",
       cudaMalloc(&P, 1 << 20)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  cudaEventRecord(Ev, S);
  it::note(What, Refused, "cudaEventQuery",
       cudaEventQuery(Ev)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  cudaEventRecord(Ev, S);
  it::note(What, Refused, "cudaEventSynchronize",
       cudaEventSynchronize(Ev)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, Refused, "cudaStreamSynchronize (legacy)",
       cudaStreamSynchronize(0)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  // The global mode forbids waiting for any stream, even one outside the
  // capture.
  cudaStream_t Other = at::cuda::getStreamFromPool().stream();
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, Refused, "cudaStreamSynchronize (other stream)",
       cudaStreamSynchronize(Other)); // EXPECT: streamsafe-graph-capture
  it::endCapture(S);

  it::note(What, Refused, "cudaStreamBeginCapture (legacy)",
       cudaStreamBeginCapture( // EXPECT: streamsafe-graph-capture
           0, cudaStreamCaptureModeGlobal));
  it::endCapture(nullptr);

  // Not refused, reported in What: a synchronous cudaMemcpy runs on the
  // legacy stream, which does not wait for the (non-blocking) capturing
  // stream, so it runs now and is not in the graph; cudaMalloc in the
  // relaxed mode.
  int NotRefused = 0;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  cudaError_t Copied = cudaMemcpy(&Host, Y.data_ptr<float>(), 4, cudaMemcpyDeviceToHost); // EXPECT: streamsafe-graph-capture // EXPECT: streamsafe-default-stream-launch
  it::note(What, NotRefused, "cudaMemcpy", Copied);
  it::endCapture(S);

  cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
  cudaMemsetAsync(Y.data_ptr<float>(), 0, Bytes, S);
  it::note(What, NotRefused, "cudaMalloc (relaxed)", cudaMalloc(&Q, 1 << 20));
  it::note(What, NotRefused, "end (relaxed)", cudaStreamEndCapture(S, &G));
  if (G)
    cudaGraphDestroy(G);

  cudaFree(P);
  cudaFree(Q);
  cudaEventDestroy(Ev);
  return {Refused == 9, What, true};
}

int main(int argc, char **argv) {
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  return it::runGraph(
      "graph_restricted_calls", "bug", argc, argv,
      [&](float V, at::cuda::CUDAStream Cap) { return probe(V, Cap, Y); });
}
