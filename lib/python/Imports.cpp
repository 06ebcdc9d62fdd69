//===--- Imports.cpp - Names resolved through a module's imports ----------===//

#include "lib/python/Imports.h"
#include "lib/model/Accelerators.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace streamsafe::py {

Imports::Imports(const SourceFile &F, llvm::StringRef DeviceModuleFunctions)
    : F(F) {
  llvm::SmallVector<llvm::StringRef, 4> Names;
  DeviceModuleFunctions.split(Names, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef N : Names)
    DeviceModules.insert(N.trim());
  read(F.root());
}

void Imports::add(llvm::StringRef Name, std::string Path) {
  auto [It, New] = Alias.try_emplace(Name, Path);
  // Bound to two different things: trust neither.
  if (!New && It->second != Path)
    It->second.clear();
}

void Imports::read(TSNode N) {
  if (is(N, "import_statement")) {
    for (TSNode Name : fieldChildren(N, "name")) {
      if (is(Name, "aliased_import")) {
        add(F.text(field(Name, "alias")), F.text(field(Name, "name")).str());
        continue;
      }
      // `import torch.cuda` binds `torch`.
      llvm::StringRef Dotted = F.text(Name);
      add(Dotted.split('.').first, Dotted.split('.').first.str());
    }
    return;
  }
  if (is(N, "import_from_statement")) {
    // `from .utils import f`: f is ".utils.f", resolved against the
    // file's package where a helper's module is looked up (Modules.h).
    TSNode Module = field(N, "module_name");
    if (!is(Module, "dotted_name") && !is(Module, "relative_import"))
      return;
    std::string Base = F.text(Module).str();
    if (llvm::StringRef(Base).ends_with("."))
      Base.pop_back(); // `from . import utils`: ".utils"
    for (TSNode Name : fieldChildren(N, "name")) {
      if (is(Name, "aliased_import"))
        add(F.text(field(Name, "alias")),
            Base + "." + F.text(field(Name, "name")).str());
      else
        add(F.text(Name), Base + "." + F.text(Name).str());
    }
    return;
  }
  // `acc = get_accelerator()`: acc is the device module (read after the
  // imports above it, as the file runs).
  if (is(N, "assignment") && is(field(N, "left"), "identifier") &&
      qualify(field(N, "right")) == CudaModule) {
    add(F.text(field(N, "left")), CudaModule);
    return;
  }
  // `self.ctx = torch.cuda.stream` (or `get_device_module(d).stream if ...
  // else torch.cuda.stream`): the attribute names that function wherever
  // the file reads it, when every assignment of it in the file agrees.
  if (is(N, "assignment") && is(unparen(field(N, "left")), "attribute") &&
      is(unparen(field(unparen(field(N, "left")), "object")), "identifier")) {
    TSNode Left = unparen(field(N, "left"));
    llvm::StringRef Name = F.text(field(Left, "attribute"));
    std::string Path = functionReference(field(N, "right"));
    auto [It, New] = AttributeAlias.try_emplace(Name, Path);
    if (!New && It->second != Path)
      It->second.clear();
  }
  for (TSNode C : children(N))
    read(C);
}

// Public aliases of the modules that define the stream classes.
static std::string canonical(std::string Path) {
  Path = cudaSpelling(Path);
  static const std::pair<const char *, const char *> Prefixes[] = {
      {"torch.cuda.streams.", "torch.cuda."},
      {"torch.cuda.graphs.", "torch.cuda."},
      {"torch.functional.", "torch."},
  };
  for (const auto &[From, To] : Prefixes)
    if (llvm::StringRef(Path).starts_with(From))
      return To + Path.substr(llvm::StringRef(From).size());
  return Path;
}

// `a.b.c`: names and attributes only, no call in the chain.
static bool dottedName(TSNode N) {
  while (is(N, "attribute"))
    N = unparen(field(N, "object"));
  return is(N, "identifier");
}

std::string Imports::functionReference(TSNode V) const {
  V = unparen(V);
  if (ts_node_is_null(V))
    return "";
  if (is(V, "conditional_expression")) {
    std::vector<TSNode> Arms = children(V);
    if (Arms.size() != 3)
      return "";
    std::string A = functionReference(Arms[0]);
    return A == functionReference(Arms[2]) ? A : "";
  }
  // A dotted name (a function or a module, not a call's result): what it
  // denotes.
  if (!is(V, "attribute") && !is(V, "identifier"))
    return "";
  return qualify(V);
}

void Imports::link(const Imports &Other) const {
  if (&Other != this && !llvm::is_contained(Linked, &Other))
    Linked.push_back(&Other);
}

std::string Imports::qualify(TSNode N,
                             const llvm::StringSet<> *Shadowed) const {
  N = unparen(N);
  if (!ts_node_is_null(N) && !F.owns(N))
    for (const Imports *O : Linked)
      if (O->F.owns(N))
        return O->qualify(N, Shadowed);
  if (is(N, "identifier")) {
    llvm::StringRef Name = F.text(N);
    if (Shadowed && Shadowed->contains(Name))
      return "";
    auto It = Alias.find(Name);
    return It == Alias.end() ? "" : canonical(It->second);
  }
  // torch.get_device_module(...): torch.cuda. (Its function is a dotted
  // name: a call of a call's result, `f(x)(y)` or `x.a(y).b(z)`, is never
  // one, and following those would walk the chain at each of its calls.)
  if (is(N, "call")) {
    TSNode Fn = unparen(field(N, "function"));
    if (!DeviceModules.empty() && dottedName(Fn) &&
        DeviceModules.contains(qualify(Fn, Shadowed)))
      return CudaModule;
    // getattr(torch, device_type): the device's module (torch.cuda on a
    // CUDA machine), whatever names the device.
    std::vector<TSNode> Args = children(field(N, "arguments"));
    if (is(Fn, "identifier") && F.text(Fn) == "getattr" &&
        !(Shadowed && Shadowed->contains("getattr")) &&
        Alias.find("getattr") == Alias.end() && Args.size() == 2 &&
        qualify(Args[0], Shadowed) == "torch")
      return CudaModule;
    return "";
  }
  if (is(N, "attribute")) {
    std::string Base = qualify(field(N, "object"), Shadowed);
    if (Base.empty() && is(unparen(field(N, "object")), "identifier"))
      return AttributeAlias.lookup(F.text(field(N, "attribute")));
    if (Base.empty())
      return "";
    return canonical(Base + "." + F.text(field(N, "attribute")).str());
  }
  return "";
}

} // namespace streamsafe::py
