require File.join(__dir__, 'cocoapods')

WhereaboutsEngine.pod('Whereabouts')
