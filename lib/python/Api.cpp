//===--- Api.cpp - The PyTorch stream API, by qualified name --------------===//

#include "lib/python/Api.h"
#include <initializer_list>

namespace streamsafe::py {

static bool oneOf(llvm::StringRef Name,
                  std::initializer_list<llvm::StringRef> Names) {
  for (llvm::StringRef N : Names)
    if (Name == N)
      return true;
  return false;
}

PyApi apiOf(llvm::StringRef Q) {
  static const std::pair<llvm::StringRef, PyApi> Named[] = {
      {"torch.cuda.Stream", PyApi::NewStream},
      {"torch.cuda.ExternalStream", PyApi::ExternalStream},
      {"torch.cuda.current_stream", PyApi::CurrentStream},
      {"torch.cuda.default_stream", PyApi::DefaultStream},
      {"torch.cuda.Event", PyApi::NewEvent},
      {"torch.cuda.stream", PyApi::StreamContext},
      {"torch.cuda.StreamContext", PyApi::StreamContext},
      {"torch.cuda.set_stream", PyApi::SetStream},
      {"torch.cuda.synchronize", PyApi::Synchronize},
      {"threading.Thread", PyApi::Thread},
      {"torch.cuda.graph", PyApi::Graph},
      {"torch.cuda.device", PyApi::DeviceContext},
  };
  for (const auto &[Name, Api] : Named)
    if (Q == Name)
      return Api;
  if (Q.consume_front("torch.nn.functional."))
    return Q.contains('.') ? PyApi::None : PyApi::TensorOp;
  if (!Q.consume_front("torch.") || Q.contains('.') || Q.empty())
    return PyApi::None; // torch.cuda.*, torch.distributed.*: not modelled
  if (oneOf(Q, {"empty", "zeros", "ones", "full", "rand", "randn", "randint",
                "randperm", "arange", "linspace", "logspace", "eye", "tensor",
                "empty_strided"}))
    return PyApi::Factory;
  if (Q.ends_with("_like"))
    return PyApi::LikeFactory;
  // Classes, settings and functions that return no tensor (or a list or a
  // tuple of them, not followed): their tensor arguments escape.
  if (Q[0] < 'a' || Q[0] > 'z')
    return PyApi::NotTensor; // torch.Size, torch.Tensor, torch.Generator
  if (oneOf(Q, {"device",
                "dtype",
                "no_grad",
                "enable_grad",
                "inference_mode",
                "set_grad_enabled",
                "manual_seed",
                "is_tensor",
                "is_grad_enabled",
                "get_default_dtype",
                "set_default_dtype",
                "set_default_device",
                "compile",
                "load",
                "save",
                "use_deterministic_algorithms",
                "numel",
                "typename",
                "is_floating_point",
                "is_complex",
                "chunk",
                "split",
                "unbind",
                "tensor_split",
                "meshgrid",
                "broadcast_tensors",
                "sort",
                "topk",
                "max",
                "min",
                "autocast",
                "from_numpy",
                "as_tensor",
                "frombuffer",
                "set_printoptions",
                "get_device",
                "is_nonzero",
                "equal",
                "allclose",
                "can_cast",
                "result_type"}))
    return PyApi::NotTensor;
  return PyApi::TensorOp;
}

bool allocatesOnly(llvm::StringRef Q) {
  return oneOf(Q, {"torch.empty", "torch.empty_strided", "torch.empty_like"});
}

TensorMethod tensorMethod(llvm::StringRef Name) {
  if (Name == "copy_")
    return TensorMethod::CopyFrom;
  if (Name == "record_stream")
    return TensorMethod::RecordStream;
  if (oneOf(Name, {"item", "tolist", "numpy"}))
    return TensorMethod::HostRead;
  if (oneOf(Name, {"to", "cuda", "cpu"}))
    return TensorMethod::To;
  if (Name == "pin_memory")
    return TensorMethod::PinMemory;
  if (oneOf(Name,
            {"view", "view_as", "transpose", "t", "permute", "narrow", "select",
             "expand", "expand_as", "squeeze", "unsqueeze", "as_strided",
             "detach", "diagonal", "unfold", "swapaxes", "movedim"}))
    return TensorMethod::View;
  if (oneOf(Name, {"size", "dim", "numel", "stride", "is_contiguous",
                   "element_size", "get_device", "is_pinned", "nelement",
                   "storage_offset", "data_ptr", "type", "ndimension",
                   "untyped_storage", "is_floating_point", "requires_grad_",
                   "register_hook", "retain_grad"}))
    return TensorMethod::Metadata;
  if (oneOf(Name, {"chunk", "split", "unbind", "tensor_split"}))
    return TensorMethod::PieceList;
  if (Name.size() > 1 && Name.ends_with("_") && !Name.starts_with("__"))
    return TensorMethod::InPlace;
  return TensorMethod::Op;
}

bool isViewAttribute(llvm::StringRef Name) {
  return oneOf(Name, {"T", "mT", "H", "mH", "data", "real", "imag"});
}

} // namespace streamsafe::py
