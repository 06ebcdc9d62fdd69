// RUN: %check_streamsafe -no-pch %s streamsafe-default-stream-launch %t

// cub wrapped in a project's namespace (CUB_WRAPPED_NAMESPACE; DGL builds
// with THRUST_CUB_WRAPPED_NAMESPACE=dgl: dgl::cub::DeviceScan) is cub still:
// its algorithms run on the stream as given, a null stream is the legacy
// one, and the size query (a null d_temp_storage) does no work.

#define CUB_WRAPPED_NAMESPACE mylib
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <cub/device/device_scan.cuh>

void prefix(at::Tensor &counts, void *workspace) {
  int n = counts.numel();
  size_t bytes = 0;
  mylib::cub::DeviceScan::ExclusiveSum(nullptr, bytes, counts.data_ptr<int>(),
                                       counts.data_ptr<int>(), n);
  mylib::cub::DeviceScan::ExclusiveSum(workspace, bytes,
                                       counts.data_ptr<int>(),
                                       counts.data_ptr<int>(), n);
  // CHECK-NOTES: :[[@LINE-3]]:3: warning: 'ExclusiveSum' runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: counts.data_ptr<int>(), n, at::cuda::getCurrentCUDAStream());
  mylib::cub::DeviceScan::ExclusiveSum(workspace, bytes,
                                       counts.data_ptr<int>(),
                                       counts.data_ptr<int>(), n,
                                       at::cuda::getCurrentCUDAStream());
}
