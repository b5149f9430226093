output.onboarding = {
    runFullOnboarding: false
}