//===--- TorchFunctions.h - The free functions of at:: and torch. -*- C++
//-*-===//
//
// at::zeros in C++ and torch.zeros in Python are one row. A function with
// no row follows the naming conventions (Naming.h): `_out`, `_outf`, a
// trailing '_', `_like`; any other is an op that reads its tensor
// arguments and returns a new tensor on the current stream.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_TORCHFUNCTIONS_H
#define STREAMSAFE_LIB_MODEL_TORCHFUNCTIONS_H

#include "lib/model/ApiEffect.h"
#include "lib/model/TensorMethods.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace streamsafe {

struct TorchFunctionRow {
  const char *Name; ///< the bare name: at::Name, torch.Name
  ApiEffect Effect;
  uint8_t Spellings = BothMethods; ///< CppMethod: at::, PyMethod: torch.
  const char *OneLanguage = nullptr;
  /// A function that returns no single tensor but runs kernels that read
  /// its tensor arguments (readsTensorArguments).
  bool ReadsArguments = false;
};

llvm::ArrayRef<TorchFunctionRow> torchFunctionRows();

/// What at::\p Bare (C++) or torch.\p Bare (Python) does: its row, or the
/// naming conventions.
ApiEffect torchFunctionEffect(llvm::StringRef Bare, Language L);

/// What the Python function \p Dotted does when it is a torch function:
/// torch.X (a class, capitalised, returns no tensor: AtenNoTensor) or
/// torch.nn.functional.X (an op); ApiEffect::None for any other name
/// (torch.cuda.*, torch.distributed.*: not free tensor functions).
ApiEffect pythonTorchFunctionEffect(llvm::StringRef Dotted);

/// Whether the function \p Bare, one that returns no single tensor the
/// model follows (a tuple: sort, topk, max(dim), ...; a Python bool:
/// equal, allclose), runs kernels that read its tensor arguments on the
/// current stream.
bool readsTensorArguments(llvm::StringRef Bare);
/// Whether the function \p Bare returns a Python value computed on the
/// device (`torch.equal`, `torch.allclose`, `torch.is_nonzero`): the host
/// reads it, waiting for the current stream as item() does
/// (`aten/src/ATen/native/ReduceOps.cpp`: `allclose` and `equal` end in
/// `.item()` of a reduction). Python only: C++'s at::equal is a row of the
/// C++ table.
bool returnsHostValue(llvm::StringRef Bare);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_TORCHFUNCTIONS_H
