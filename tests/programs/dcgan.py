"""examples/dcgan: a ConvTranspose2d + BatchNorm2d generator against a conv discriminator, with
the BCE loss and the weights_init of the example, a few steps on 16x16 images."""
import core
import core.nn as nn
import core.optim as optim

nz, ngf, ndf, nc = 16, 8, 8, 1


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        core.nn.init.normal_(m.weight, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        core.nn.init.normal_(m.weight, 1.0, 0.02)
        core.nn.init.zeros_(m.bias)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False), nn.Tanh())

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False), nn.Sigmoid())

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)


def main():
    core.manual_seed(999)
    core.backends.cudnn.benchmark = True
    device = core.device("cuda:0" if core.cuda.is_available() else "cpu")
    netG, netD = Generator().to(device), Discriminator().to(device)
    netG.apply(weights_init)
    netD.apply(weights_init)
    criterion = nn.BCELoss()
    fixed_noise = core.randn(4, nz, 1, 1, device=device)
    real_label, fake_label = 1.0, 0.0
    optimizerD = optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
    optimizerG = optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
    real = core.tanh(core.randn(16, nc, 16, 16, device=device))
    for _ in range(5):
        netD.zero_grad()
        label = core.full((16,), real_label, dtype=core.float, device=device)
        errD_real = criterion(netD(real), label)
        errD_real.backward()
        fake = netG(core.randn(16, nz, 1, 1, device=device))
        label.fill_(fake_label)
        errD_fake = criterion(netD(fake.detach()), label)
        errD_fake.backward()
        optimizerD.step()
        netG.zero_grad()
        label.fill_(real_label)
        errG = criterion(netD(fake), label)
        assert errG.grad_fn.name() == "BinaryCrossEntropyBackward0"
        errG.backward()
        optimizerG.step()
    with core.no_grad():
        assert netG(fixed_noise).shape == (4, nc, 16, 16)
    return errG.item()
