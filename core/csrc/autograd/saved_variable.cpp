#include "autograd/saved_variable.h"

namespace tz {

SavedVariable::SavedVariable(const Tensor& t, bool is_output) {
  none_ = !t.defined();
  if (none_) return;
  TZ_CHECK(!t.is_inference(), Runtime, "Inference tensors cannot be saved for backward. To work "
           "around you can make a clone to get a normal tensor and use it in autograd.");
  saved_version_ = t.version();
  is_output_ = is_output;
  if (is_output) {
    data_ = autograd::detach(t);
    if (AutogradMeta* m = autograd::meta(t)) {
      grad_fn_ = m->grad_fn;
      output_nr_ = m->output_nr;
    }
  } else {
    data_ = t;
  }
}

Tensor SavedVariable::unpack(const Node& owner) const {
  if (none_) return Tensor();
  if (!data_.defined()) {
    fail(ErrorKind::Runtime, "Trying to backward through the graph a second time (or directly "
         "access saved tensors after they have already been freed). Saved intermediate values of "
         "the graph are freed when you call .backward() or autograd.grad(). Specify "
         "retain_graph=True if you need to backward through the graph a second time or if you "
         "need to access saved tensors after calling backward.");
  }
  if (data_.version() != saved_version_) {
    std::string producer;
    if (is_output_) producer = ", which is output " + std::to_string(output_nr_) + " of " + owner.name();
    else if (AutogradMeta* m = autograd::meta(data_); m && m->grad_fn)
      producer = ", which is output " + std::to_string(m->output_nr) + " of " + m->grad_fn->name();
    fail(ErrorKind::Runtime, "one of the variables needed for gradient computation has been "
         "modified by an inplace operation: [core.", dtype_name(data_.dtype()), " ",
         shape_str(data_.sizes()), "]", producer, ", is at version ", data_.version(),
         "; expected version ", saved_version_, " instead (it was saved for ", owner.name(),
         "). Hint: enable anomaly detection to find the operation that failed to compute its "
         "gradient, with core.autograd.set_detect_anomaly(True).");
  }
  if (!is_output_) return data_;
  NodePtr fn = grad_fn_.lock();
  if (!fn) return data_;
  // Re-attach the output to its node so that double backward sees the graph.
  Tensor out = autograd::detach(data_);
  AutogradMeta& m = autograd::ensure_meta(out);
  m.grad_fn = fn;
  m.output_nr = output_nr_;
  return out;
}

}  // namespace tz
