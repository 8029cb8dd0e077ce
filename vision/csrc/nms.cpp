// Non-maximum suppression, torchvision's CPU algorithm: boxes by decreasing score; a box is
// dropped when its IoU with an already kept box is > iou_threshold. Ties keep index order
// (a stable sort), which torchvision leaves unspecified.
#include <algorithm>
#include <numeric>
#include <vector>

#include "ops.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "roi_common.h"

namespace tz::vision {
namespace {

template <typename T>
std::vector<int64_t> suppress(const T* boxes, const T* scores, int64_t n, double threshold) {
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return scores[a] > scores[b]; });
  std::vector<T> area(n);
  for (int64_t i = 0; i < n; ++i) {
    const T* b = boxes + 4 * i;
    area[i] = (b[2] - b[0]) * (b[3] - b[1]);
  }
  std::vector<char> dropped(n, 0);
  std::vector<int64_t> keep;
  for (int64_t oi = 0; oi < n; ++oi) {
    const int64_t i = order[oi];
    if (dropped[i]) continue;
    keep.push_back(i);
    const T* bi = boxes + 4 * i;
    for (int64_t oj = oi + 1; oj < n; ++oj) {
      const int64_t j = order[oj];
      if (dropped[j]) continue;
      const T* bj = boxes + 4 * j;
      const T w = std::max(T(0), std::min(bi[2], bj[2]) - std::max(bi[0], bj[0]));
      const T h = std::max(T(0), std::min(bi[3], bj[3]) - std::max(bi[1], bj[1]));
      const T inter = w * h;
      const T iou = inter / (area[i] + area[j] - inter);
      if (iou > threshold) dropped[j] = 1;
    }
  }
  return keep;
}

}  // namespace

Tensor nms(const Tensor& boxes, const Tensor& scores, double iou_threshold) {
  TZ_CHECK(boxes.dim() == 2 && boxes.sizes()[1] == 4, Runtime, "nms(): boxes should be a 2d tensor of shape [N, 4], "
           "got ", shape_str(boxes.sizes()));
  TZ_CHECK(scores.dim() == 1, Runtime, "nms(): scores should be a 1d tensor, got ", shape_str(scores.sizes()));
  TZ_CHECK(boxes.sizes()[0] == scores.sizes()[0], Runtime, "nms(): boxes and scores should have the same number of "
           "elements in dimension 0, got ", boxes.sizes()[0], " and ", scores.sizes()[0]);
  TZ_CHECK(boxes.dtype() == scores.dtype(), Runtime, "nms(): boxes and scores must have the same dtype, got ",
           scalar_type_name(boxes.dtype()), " and ", scalar_type_name(scores.dtype()));
  const int64_t n = boxes.sizes()[0];
  std::vector<int64_t> keep;
  if (n > 0) {
    const Tensor b = contiguous(boxes), s = contiguous(scores);
    dispatch_float(boxes.dtype(), "nms", [&](auto t) {
      using T = decltype(t);
      keep = suppress<T>(b.data<T>(), s.data<T>(), n, iou_threshold);
    });
  }
  Tensor out = Tensor::empty({static_cast<int64_t>(keep.size())}, DType::Int64);
  std::copy(keep.begin(), keep.end(), out.numel() ? out.data<int64_t>() : nullptr);
  return out;
}

}  // namespace tz::vision
