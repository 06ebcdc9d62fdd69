//===--- ModelJson.cpp - The API model as data ----------------------------===//

#include "lib/model/ModelJson.h"
#include "lib/model/ApiRows.h"
#include "lib/model/Bounds.h"
#include "lib/model/TensorMethods.h"
#include "lib/model/TorchFunctions.h"

namespace streamsafe {

namespace {

llvm::json::Value orNull(const char *S) {
  return S ? llvm::json::Value(S) : llvm::json::Value(nullptr);
}

const char *className(ValueClass C) {
  switch (C) {
  case ValueClass::None:
    return "None";
  case ValueClass::Tensor:
    return "Tensor";
  case ValueClass::Stream:
    return "Stream";
  case ValueClass::RawStream:
    return "RawStream";
  case ValueClass::Event:
    return "Event";
  case ValueClass::RawEvent:
    return "RawEvent";
  case ValueClass::StreamGuard:
    return "StreamGuard";
  case ValueClass::OptionalGuard:
    return "OptionalGuard";
  case ValueClass::MultiGuard:
    return "MultiGuard";
  case ValueClass::DeviceGuard:
    return "DeviceGuard";
  }
  return "?";
}

// A table of bare names (tensor methods, torch functions).
template <typename RowT>
llvm::json::Array bareRows(llvm::ArrayRef<RowT> Rows, const char *CppPrefix,
                           const char *PyPrefix) {
  llvm::json::Array Out;
  for (const RowT &R : Rows) {
    std::string Py;
    if (R.Spellings & PyMethod)
      Py = std::string(PyPrefix) + R.Name;
    llvm::json::Object O{
        {"name", R.Name},
        {"effect", effectName(R.Effect)},
        {"cpp", R.Spellings & CppMethod
                    ? llvm::json::Value(std::string(CppPrefix) + R.Name)
                    : llvm::json::Value(nullptr)},
        {"python",
         Py.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(Py)},
        {"python_attribute", bool(R.Spellings & PyAttribute)},
        {"may_copy", R.Effect == ApiEffect::TensorView && viewMayCopy(R.Name)},
        {"one_language", orNull(R.OneLanguage)}};
    Out.push_back(std::move(O));
  }
  return Out;
}

} // namespace

llvm::json::Value modelAsJson() {
  llvm::json::Array Apis;
  for (const ApiRow &R : apiRows())
    Apis.push_back(llvm::json::Object{{"cpp", orNull(R.Cpp)},
                                      {"python", orNull(R.Python)},
                                      {"effect", effectName(R.Entry.Effect)},
                                      {"one_language", orNull(R.OneLanguage)}});
  llvm::json::Array Classes;
  for (const ClassRow &R : classRows())
    Classes.push_back(
        llvm::json::Object{{"cpp", orNull(R.Cpp)},
                           {"python", orNull(R.Python)},
                           {"class", className(R.Class)},
                           {"one_language", orNull(R.OneLanguage)}});
  return llvm::json::Object{
      {"apis", std::move(Apis)},
      {"classes", std::move(Classes)},
      {"tensor_methods", bareRows(tensorMethodRows(), "at::Tensor::", "")},
      {"torch_functions", bareRows(torchFunctionRows(), "at::", "torch.")},
      {"bounds",
       llvm::json::Object{{"max_inlined_callees", bounds::MaxInlinedCallees},
                          {"max_body_nesting", bounds::MaxBodyNesting}}}};
}

} // namespace streamsafe
