"""The three summaries of the hparams plugin: the experiment (which hyperparameters and
metrics exist), a session's start (its hyperparameter values) and its end."""
import numbers

from core._tensor import Tensor
from core.utils.tensorboard._convert import to_float
from core.utils.tensorboard._proto import proto
from core.utils.tensorboard._summary import make_summary, plugin_metadata

EXPERIMENT_TAG = "_hparams_/experiment"
SESSION_START_TAG = "_hparams_/session_start_info"
SESSION_END_TAG = "_hparams_/session_end_info"


def _hparams_summary(tag, **content):
    data = proto("hparams_data").HParamsPluginData(version=0, **content)
    return make_summary(tag, metadata=plugin_metadata("hparams", data))


def _typed(name, value):
    """(api data type name, Value field, value) of one hyperparameter."""
    if isinstance(value, Tensor):
        value = to_float(value, f"add_hparams: hyperparameter {name!r}")
    if isinstance(value, bool):
        return "DATA_TYPE_BOOL", "bool_value", value
    if isinstance(value, numbers.Real):
        return "DATA_TYPE_FLOAT64", "number_value", float(value)
    if isinstance(value, str):
        return "DATA_TYPE_STRING", "string_value", value
    raise ValueError(f"add_hparams: hyperparameter {name!r} is a {type(value).__name__}; "
                     "use int, float, str, bool or a one-element Tensor")


def hparams(hparam_dict, metric_dict, hparam_domain_discrete=None):
    """(experiment, session start, session end) summaries."""
    if not isinstance(hparam_dict, dict) or not isinstance(metric_dict, dict):
        raise TypeError("add_hparams: hparam_dict and metric_dict must be dicts")
    api = proto("hparams_api")
    domains = hparam_domain_discrete or {}
    for name, choices in domains.items():
        if name not in hparam_dict or not isinstance(choices, (list, tuple)):
            raise TypeError(f"add_hparams: hparam_domain_discrete[{name!r}] must be a list of the "
                            "values of a hyperparameter in hparam_dict")
    start = proto("hparams_data").SessionStartInfo()
    infos = []
    for name, value in hparam_dict.items():
        if value is None:
            continue
        data_type, field, value = _typed(name, value)
        setattr(start.hparams[name], field, value)
        info = api.HParamInfo(name=name, type=api.DataType.Value(data_type))
        if name in domains:
            info.domain_discrete.extend([_typed(name, c)[2] for c in domains[name]])
        infos.append(info)
    metrics = [api.MetricInfo(name=api.MetricName(tag=tag)) for tag in metric_dict]
    experiment = api.Experiment(hparam_infos=infos, metric_infos=metrics)
    end = proto("hparams_data").SessionEndInfo(status=api.Status.Value("STATUS_SUCCESS"))
    return (_hparams_summary(EXPERIMENT_TAG, experiment=experiment),
            _hparams_summary(SESSION_START_TAG, session_start_info=start),
            _hparams_summary(SESSION_END_TAG, session_end_info=end))
