"""A data-parallel training run the way the references' train.py scripts run one (the
classification script itself comes with issue #21): distributed when a launcher started the
process, a DistributedSampler shard per rank, DDP over a model with SyncBatchNorm, logging on
rank 0 only and one checkpoint, written by rank 0."""
import os
import sys

import core
import core.distributed as dist
import core.nn as nn
import core.nn.functional as F
from core.utils.data import DataLoader, DistributedSampler, RandomSampler
from vision import datasets, transforms

out_dir = sys.argv[1]
launch = dist.launcher_info()
distributed = launch is not None and launch.world_size > 1
if distributed:
    dist.init_process_group("mpi", init_method="env://")
rank = dist.get_rank() if distributed else 0
is_main = rank == 0

dataset = datasets.Shapes(split="train", size=48, image_size=16, transform=transforms.ToTensor())
sampler = DistributedSampler(dataset, shuffle=True) if distributed else RandomSampler(dataset)
loader = DataLoader(dataset, batch_size=4, sampler=sampler)
core.manual_seed(rank)  # DDP's start-up broadcast makes the replicas equal
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(8, len(datasets.Shapes.classes)))
if distributed:
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = nn.parallel.DistributedDataParallel(model)
optimizer = core.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(2):
    if distributed:
        sampler.set_epoch(epoch)
    seen = 0
    for images, labels in loader:
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        seen += len(labels)
    if is_main:
        print(f"epoch {epoch}: loss {loss.item():.4f}, {seen} samples on each of "
              f"{dist.get_world_size() if distributed else 1} ranks", flush=True)

plain = model.module if distributed else model
if is_main:
    core.save({"model": plain.state_dict(), "epoch": epoch}, os.path.join(out_dir, "checkpoint.pth"))
if distributed:
    checksums = [None] * dist.get_world_size()
    dist.all_gather_object(checksums, [float(p.double().sum()) for p in plain.parameters()])
    if is_main:
        print(f"replicas equal: {all(c == checksums[0] for c in checksums)}", flush=True)
    dist.destroy_process_group()
