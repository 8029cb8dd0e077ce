"""The transfer-learning tutorial's fine-tuning recipe on a tiny two-class image set: a resnet18
from the weights API (weights=None here: no download), a new head, frozen features, a step LR."""
import core
import core.nn as nn
from core.optim import lr_scheduler
from vision import models


def main():
    core.manual_seed(0)
    device = core.device("cuda:0" if core.cuda.is_available() else "cpu")
    model_conv = models.resnet18(weights=None)
    for param in model_conv.parameters():
        param.requires_grad = False
    model_conv.fc = nn.Linear(model_conv.fc.in_features, 2)
    model_conv = nn.DataParallel(model_conv).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = core.optim.SGD(model_conv.module.fc.parameters(), lr=0.1, momentum=0.9)
    scheduler = lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.1)
    labels = core.tensor([0, 1] * 4)
    images = core.randn(8, 3, 32, 32) * 0.1 + labels.view(-1, 1, 1, 1).float()
    model_conv.train()
    for m in model_conv.modules():  # a fixed feature extractor keeps its batch-norm statistics too
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
    for epoch in range(15):
        optimizer.zero_grad()
        loss = criterion(model_conv(images.to(device)), labels.to(device))
        loss.backward()
        optimizer.step()
        scheduler.step()
    assert all(p.grad is None for n, p in model_conv.named_parameters() if not n.startswith("module.fc"))
    assert list(model_conv.state_dict())[0] == "module.conv1.weight"
    model_conv.eval()
    with core.no_grad():
        assert (model_conv(images).argmax(1) == labels).all()
    return loss.item()
